/**
 * The CS compliance suite's liveness concern: the sequential (uncontended) workload — one
 * invocation in the whole cluster at a time, the network quiet between — completes every
 * invocation alone, with the right number of entries and exits.
 */
import { unitDelay } from '@critsec/transport-sim';
import { type CSComplianceContext, check } from './cs-setup.js';
import { runSeed } from './cs-seed.js';

/**
 * Registers the sequential-workload test: `min(20, ⌈seeds / 50⌉)` (at least 1) seeds from the
 * first, unit delays, over `setup.sequentialSpec` when the setup gives one.
 */
export function livenessTests<Req>(ctx: CSComplianceContext<Req>): void {
  const { setup } = ctx;
  ctx.it(
    `${ctx.title}: sequential (uncontended) workload completes every invocation alone`,
    async () => {
      const runs = Math.max(1, Math.min(20, Math.ceil(ctx.seeds / 50)));
      for (let s = 0; s < runs; s++) {
        const seq = setup.sequentialSpec === undefined ? setup : { ...setup, spec: setup.sequentialSpec };
        const r = await runSeed(seq, ctx.first + s, unitDelay, { kind: 'sequential' });
        check(
          r.entries === r.exits && r.entries === setup.spec.n * ctx.rounds,
          `seed ${ctx.first + s}: wrong count`,
        );
      }
    },
    ctx.timeout,
  );
}
