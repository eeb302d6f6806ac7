/**
 * The CS compliance suite's determinism concern: the same seed gives the same trace, byte for
 * byte, under every delay model — what makes a failing seed replayable.
 */
import { formatDelay } from '@critsec/transport-sim';
import { createCluster } from '@critsec/harness';
import { type CSComplianceContext, check, clusterOptions, workloadOptions } from './cs-setup.js';
import { runWorkload } from '@critsec/harness';

/** Registers the determinism test: seed `first + 7` run twice per delay model, traces compared. */
export function determinismTests<Req>(ctx: CSComplianceContext<Req>): void {
  const { setup } = ctx;
  ctx.it(
    `${ctx.title}: determinism — the same seed gives the same trace`,
    async () => {
      for (const delay of ctx.delays) {
        const traces: string[] = [];
        for (let k = 0; k < 2; k++) {
          const cluster = createCluster({ ...clusterOptions(setup, ctx.first + 7, delay), trace: true });
          await runWorkload(cluster, workloadOptions(setup));
          traces.push(cluster.net.trace.join('\n'));
        }
        check(traces[0]!.length > 0, 'empty trace');
        check(traces[0] === traces[1], `seed ${ctx.first + 7}, delay ${formatDelay(delay)}: two runs differ`);
      }
    },
    ctx.timeout,
  );
}
