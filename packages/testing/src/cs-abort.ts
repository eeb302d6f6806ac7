/**
 * The CS compliance suite's abort concern: entries aborted at random (through their
 * `AbortSignal`) leave the cluster safe and live, and the runs really did abort something.
 */
import { type CSComplianceContext, check } from './cs-setup.js';
import { runSeed } from './cs-seed.js';

/**
 * Registers the abort test unless `setup.abort` is `false`: seeds from `first + 500,000`, the
 * delay models in turn, each entry aborted with probability `probability` (default 0.3) within
 * `within` time units (default 3); `seeds` defaults to `min(200, seeds)`.
 */
export function abortTests<Req>(ctx: CSComplianceContext<Req>): void {
  const { setup } = ctx;
  if (setup.abort === false) return;
  const abort = setup.abort ?? {};
  ctx.it(
    `${ctx.title}: aborted entries leave the cluster safe and live`,
    async () => {
      const runs = abort.seeds ?? Math.min(200, ctx.seeds);
      let aborted = 0;
      let waited = false;
      for (let s = 0; s < runs; s++) {
        const delay = ctx.delays[s % ctx.delays.length]!;
        const r = await runSeed(setup, ctx.first + 500_000 + s, delay, {
          abort: { probability: abort.probability ?? 0.3, within: abort.within ?? 3 },
        });
        aborted += r.aborted;
        waited ||= r.waiting.entry.max > 0 || r.aborted > 0;
      }
      // an algorithm whose entries never wait (e.g. n = 1) has nothing to abort
      check(
        !waited || aborted > 0,
        `no entry was actually aborted in ${runs} runs: the test did not exercise abort`,
      );
    },
    ctx.timeout,
  );
}
