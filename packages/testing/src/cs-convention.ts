/**
 * The CS compliance suite's usage-error concern: calls that break the CS method invocation
 * convention (CSMIC: `exit()` while OutCS, `entry()` while InCS, a second call while one is in
 * flight) reject with a `CSMICError` and send nothing.
 */
import { unitDelay } from '@critsec/transport-sim';
import { createCluster } from '@critsec/harness';
import { type CSComplianceContext, check, clusterOptions, enterArgs, expectCSMIC } from './cs-setup.js';

/** Registers the CSMIC test (one test, on the first seed, unit delays). */
export function conventionTests<Req>(ctx: CSComplianceContext<Req>): void {
  const { setup } = ctx;
  ctx.it(
    `${ctx.title}: CSMIC violations reject with CSMICError and send nothing`,
    async () => {
      const cluster = createCluster(clusterOptions(setup, ctx.first, unitDelay));
      const net = cluster.net;
      const outs = cluster.initial.flatMap((s, i) => (s === 'OutCS' ? [i] : []));
      const ins = cluster.initial.flatMap((s, i) => (s === 'InCS' ? [i] : []));
      if (outs.length > 0) {
        const i = outs[0]!;
        const before = net.counters().sent;
        await expectCSMIC(`exit() on P${i} while OutCS`, cluster.objects[i]!.exit());
        await net.settle();
        check(net.counters().sent === before, `exit() on P${i} while OutCS sent messages`);
      }
      if (ins.length > 0) {
        const i = ins[0]!;
        const before = net.counters().sent;
        await expectCSMIC(`entry() on P${i} while InCS`, enterArgs(setup, cluster, i));
        await net.settle();
        check(net.counters().sent === before, `entry() on P${i} while InCS sent messages`);
      }
      // a second call while one is in flight
      const i = outs[0] ?? ins[0]!;
      const cs = cluster.objects[i]!;
      // the first call is in flight from its invocation on, even for an algorithm whose call can
      // complete without waiting for a message (n = 1): the second calls are made in the same tick
      const firstCall = cs.state === 'OutCS' ? enterArgs(setup, cluster, i) : cs.exit();
      firstCall.catch(() => {});
      const before = net.counters().sent;
      const secondEntry = enterArgs(setup, cluster, i);
      const secondExit = cs.exit();
      check(net.counters().sent === before, `a rejected call on P${i} sent messages`);
      await expectCSMIC(`entry() on P${i} while a call is in flight`, secondEntry);
      await expectCSMIC(`exit() on P${i} while a call is in flight`, secondExit);
      await cluster.close();
    },
    ctx.timeout,
  );
}
