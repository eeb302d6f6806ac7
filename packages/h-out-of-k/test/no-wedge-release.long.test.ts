/**
 * Issue 27 §3, long suite: the forged `release(seq, ts 1)` of P4's current request while it waits
 * (`forged-release.ts`), 2,000 seeds; each seed draws the instant from which it is sent (5, 12, 20
 * or 30) and the delays (unit on odd seeds, uniform(0.1, 2) on even ones). Never more than k units
 * held, every process completes its rounds, no error. Measured with the rules of `src/arbiter.ts`
 * ("a release before the OK"): 0 of 2,000 runs stuck or unsafe.
 */
import { createRng, uniformDelay } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { forgedRelease } from './forged-release.js';

const INSTANTS = [5, 12, 20, 30];
const SEEDS = 2000;

describe("a release of P4's current request while it waits never wedges h-out-of-k (issue 27 §3)", () => {
  it(`${SEEDS} seeds, instant and delays drawn per seed: 0 stuck, 0 unsafe`, async () => {
    const bad: string[] = [];
    let granted = 0;
    for (let seed = 1; seed <= SEEDS; seed++) {
      const at = INSTANTS[createRng(seed).int(INSTANTS.length)]!;
      const delay = seed % 2 === 0 ? uniformDelay(0.1, 2) : undefined;
      const x = await forgedRelease(seed, at, delay);
      if (x.granted) granted++;
      if (!x.r.ok || x.errors.length > 0) bad.push(`seed ${seed} (t ${at}): ${x.r.failure ?? x.errors[0]}`);
    }
    console.info(`forged release: in ${granted} of ${SEEDS} runs the OK had been given when it arrived`);
    expect(bad).toEqual([]);
  });
});
