/**
 * The CS compliance suite's safety concern: the concurrent workload over many seeds and every
 * delay model, the safety monitor checking the problem at every state change (a run also fails
 * when a process never completes, so these runs check liveness under contention too); and the
 * coverage check that every declared rare path was taken across those seeds.
 */
import { collectReached } from '@critsec/core/kit';
import { formatDelay } from '@critsec/transport-sim';
import { type CSComplianceContext, check } from './cs-setup.js';
import { runSeed } from './cs-seed.js';

/**
 * Registers one test per delay model: seeds `first + d·1,000,003 + s` for `s < seeds` (d the
 * model's index). The first of them starts the rare-path collector {@link coverageTests} reads.
 */
export function safetyTests<Req>(ctx: CSComplianceContext<Req>): void {
  const { setup } = ctx;
  ctx.delays.forEach((delay, d) => {
    ctx.it(
      `${ctx.title}: safety and liveness over ${ctx.seeds} seeds, delay ${formatDelay(delay)}`,
      async () => {
        ctx.reached.collector ??= collectReached();
        for (let s = 0; s < ctx.seeds; s++) {
          await runSeed(setup, ctx.first + d * 1_000_003 + s, delay, {
            think: setup.think,
            hold: setup.hold,
          });
        }
      },
      ctx.timeout,
    );
  });
}

/**
 * Registers the coverage test when the setup declares rare paths: every `reach` label in
 * `setup.coverage` was taken at least once across the safety seeds. Register it after
 * {@link safetyTests} (it stops their collector).
 */
export function coverageTests<Req>(ctx: CSComplianceContext<Req>): void {
  const expected = ctx.setup.coverage;
  if (expected === undefined || expected.length === 0) return;
  ctx.it(
    `${ctx.title}: every rare path was taken across the seed set (${expected.join(', ')})`,
    async () => {
      const c = ctx.reached.collector;
      c?.stop();
      check(c !== undefined, 'the safety tests did not run before the coverage check');
      const missing = c.missing(expected);
      check(missing.length === 0, `never reached: ${missing.join(', ')}`);
    },
    ctx.timeout,
  );
}
