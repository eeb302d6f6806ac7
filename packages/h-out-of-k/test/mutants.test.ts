/**
 * The suite has teeth: deliberately broken grant rules (subclasses of the arbiter in `mutant-arbiters.ts`, through the internal `hOutOfKWithArbiter`) are caught by
 * the same seeded workloads the compliance suite runs — the grant rule without `x ≥ h'` lets more
 * than k units in (a safety violation), an arbiter that never cancels lower-priority OKs deadlocks.
 * (`explore.test.ts` catches both by exhaustive exploration too.)
 */
import { hOutOfKSpec } from '@critsec/core';
import { uniformHKArbiter } from '@critsec/coteries';
import { createCluster, runWorkload } from '@critsec/harness';
import { exponentialDelay } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { hOutOfKWithArbiter } from '../src/factory.js';
import { randomH } from './helpers.js';
import { arbiters, type Rules } from './mutant-arbiters.js';

const n = 5;
const k = 3;
const arbiter = uniformHKArbiter(n, k);

async function outcomes(rules: Rules, seeds: number) {
  let violations = 0;
  let stuck = 0;
  let first = '';
  for (let seed = 1; seed <= seeds; seed++) {
    const cluster = createCluster({
      factory: hOutOfKWithArbiter({ k, arbiter }, arbiters[rules]),
      spec: hOutOfKSpec(k, n),
      seed,
      delay: exponentialDelay(1),
    });
    const r = await runWorkload(cluster, {
      rounds: 3,
      think: 1,
      hold: 1,
      request: randomH(k),
      maxEvents: 100_000,
    });
    if (r.violation !== null) violations++;
    else if (!r.ok) stuck++;
    if (!r.ok && first === '') first = `seed ${seed}: ${r.violation?.message ?? r.failure}`;
  }
  return { violations, stuck, first };
}

describe('mutants of the grant rule are caught', () => {
  it('Fig. 1 as implemented: 40 seeds, no violation, nobody stuck', async () => {
    expect(await outcomes('fig1', 40)).toEqual({ violations: 0, stuck: 0, first: '' });
  });

  it("grant without x ≥ h': more than k units held", async () => {
    const r = await outcomes('mutant-grant', 40);
    expect(r.violations).toBeGreaterThan(0);
    expect(r.first).toMatch(/units held InCS, more than k = 3/);
  });

  it('no cancel of lower-priority OKs: deadlock', async () => {
    const r = await outcomes('mutant-no-cancel', 40);
    expect(r.violations).toBe(0);
    expect(r.stuck).toBeGreaterThan(0);
    expect(r.first).toMatch(/deadlock or starvation/);
  });
});
