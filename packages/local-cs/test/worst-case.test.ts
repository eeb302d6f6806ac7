/**
 * The worst schedules the search of `@critsec/testing` finds against Lemmas 3 and 6 (issue 26
 * §2): messages per exit+entry pair of P_i, every process contending over delivery orders in
 * controlled mode, messages charged causally, measured in units of |N_i| + 1 — LMUTIN at most 6
 * (Lemma 3's worst, 3 without contention), LKCS at most 12 (Lemma 6; its README: pairs beyond it
 * are rare and stay within 1.5×, since the lemma counts neither the sidetrack nor a second
 * preemption of one request).
 */
import {
  measureRun,
  replaySchedule,
  type ScheduleRun,
  type ScheduleSetup,
  searchWorstSchedule,
} from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { type Instance, lkcsFamilies, lmutinFamilies } from './families.js';

const setupOf = (x: Instance): ScheduleSetup => ({
  cluster: { factory: x.factory, spec: x.spec, initial: x.initial },
});

/** The largest pair of the run over |N_i| + 1 of its process. */
const perNeighbourhood =
  (x: Instance) =>
  (run: ScheduleRun): number =>
    Math.max(0, ...run.pairs.map((p) => p.messages / (x.graph.neighbors[p.process]!.length + 1)));

describe('worst schedule found: messages per pair / (|N_i| + 1)', () => {
  it('LMUTIN ring:6 l=1: at most 6 (Lemma 3) in 20,000 steps, above 3 (contention)', async () => {
    const x = lmutinFamilies()[0]!;
    const measure = perNeighbourhood(x);
    const r = await searchWorstSchedule({ ...setupOf(x), measure, maxSteps: 20_000 });
    expect(r.failure).toBeNull();
    expect(r.value).toBeLessThanOrEqual(6);
    expect(r.value).toBeGreaterThan(3);
    expect(r.value).toBe(16 / 3); // the README's figure
    const again = await replaySchedule(setupOf(x), r.replay);
    expect(measureRun(measure, again)).toBe(r.value);
    console.info(`${x.name}: worst pair ${r.value}·(|N_i|+1) (${r.runs} runs, ${r.steps} steps)`);
  });

  it('LKCS complete:5 (1,4): within 1.5 × 12 in 20,000 steps', async () => {
    const x = lkcsFamilies()[0]!;
    const r = await searchWorstSchedule({ ...setupOf(x), measure: perNeighbourhood(x), maxSteps: 20_000 });
    expect(r.failure).toBeNull();
    expect(r.value).toBeLessThanOrEqual(18);
    expect(r.value).toBe(63 / 5); // the README's figure, above 12
    console.info(`${x.name}: worst pair ${r.value}·(|N_i|+1) (${r.runs} runs, ${r.steps} steps)`);
  });
});
