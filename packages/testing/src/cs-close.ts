/**
 * The CS compliance suite's close concern: `close()` settles every call in flight, later calls
 * reject with a `CSMICError`, and nothing is sent after it.
 */
import { isAbortError } from '@critsec/core';
import { unitDelay } from '@critsec/transport-sim';
import { createCluster } from '@critsec/harness';
import { type CSComplianceContext, check, clusterOptions, enterArgs, expectCSMIC } from './cs-setup.js';

/**
 * Registers the close test: seed `first + 11`, unit delays; every process OutCS calls `entry()`,
 * the network runs `n` events, every object is closed mid-protocol.
 */
export function closeTests<Req>(ctx: CSComplianceContext<Req>): void {
  const { setup } = ctx;
  ctx.it(
    `${ctx.title}: close() settles calls in flight; later calls reject; nothing is sent after`,
    async () => {
      const cluster = createCluster(clusterOptions(setup, ctx.first + 11, unitDelay));
      const net = cluster.net;
      const calls: Promise<unknown>[] = [];
      cluster.objects.forEach((cs, i) => {
        const p = cs.state === 'OutCS' ? enterArgs(setup, cluster, i) : Promise.resolve();
        calls.push(
          p.then(
            () => 'resolved',
            (e: unknown) => (isAbortError(e) || e instanceof Error ? 'rejected' : 'odd'),
          ),
        );
      });
      await net.run({ maxEvents: Math.max(1, cluster.n) });
      await Promise.all(cluster.objects.map((cs) => cs.close()));
      const sentAtClose = net.counters().sent;
      await net.run();
      let settled = 0;
      for (const c of calls) void c.then(() => settled++);
      await net.settle();
      check(settled === calls.length, `${calls.length - settled} call(s) still pending after close()`);
      check(net.counters().sent === sentAtClose, 'messages were sent after close()');
      await expectCSMIC('entry() after close()', enterArgs(setup, cluster, 0));
      await cluster.objects[0]!.close();
    },
    ctx.timeout,
  );
}
