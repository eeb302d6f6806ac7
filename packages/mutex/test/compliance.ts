/**
 * The compliance suites of Maekawa and Ricart–Agrawala, defined once and registered twice: by the
 * fast files (`compliance-*.test.ts`, `npm test`) with a few seeds per delay model and by
 * `*.compliance.long.test.ts` (`npm run test:long`) with ≥ 1,000 per delay model (Maekawa's long
 * file registers the same suite itself: each distinct quorum assignment once, see its header).
 * Each seed is one concurrent run; the suite runs every seed under unit, uniform(0.1, 2) and
 * exponential(1) delays.
 */
import { CSMICError, mutexSpec } from '@critsec/core';
import { createCluster } from '@critsec/harness';
import { csCompliance, type TestFn } from '@critsec/testing/cs';
import { describe, expect, it } from 'vitest';
import { maekawa, ricartAgrawala } from '../src/index.js';
import { coteriesFor, SIZES } from './helpers.js';

/** Registers Maekawa's suite on every coterie construction for each n of `sizes`. */
export function maekawaCompliance(sizes: readonly number[], seedsPerDelay: number): void {
  for (const n of sizes) {
    describe(`maekawa, n = ${n}`, () => {
      for (const [label, coterie] of coteriesFor(n)) {
        csCompliance({
          it,
          name: `maekawa-${label}-${n}`,
          factory: maekawa({ coterie }),
          spec: mutexSpec(n),
          seeds: seedsPerDelay,
          // the per-run cost grows like n·|Q|: n ≥ 16 runs one round per process per seed
          rounds: n >= 16 ? 1 : 2,
          abort: { seeds: 20 },
          traceDir: '.traces',
        });
      }
    });
  }
}

/**
 * Registers Ricart–Agrawala's suite for n ∈ {1, 2, 3, 4, 5, 7, 9, 13, 16, 25}.
 *
 * n = 1 is special: with nobody to ask, `entry()` completes at once without a message, so the
 * suite's CSMIC test (its "second call while one is in flight" step assumes an entry waits for
 * the network) and its abort test (nothing is ever waiting) do not apply; they are replaced by
 * the direct check below. Every other test of the suite runs for n = 1 too.
 */
export function ricartAgrawalaCompliance(seedsPerDelay: number): void {
  describe('ricart-agrawala', () => {
    for (const n of SIZES) {
      const register: TestFn =
        n === 1 ? (name, fn, t) => (name.includes('CSMIC violations') ? undefined : it(name, fn, t)) : it;
      csCompliance({
        it: register,
        name: `ricart-agrawala-${n}`,
        factory: ricartAgrawala(),
        spec: mutexSpec(n),
        seeds: seedsPerDelay,
        rounds: n >= 16 ? 1 : 2,
        abort: n === 1 ? false : { seeds: 20 },
        coverage: n === 9 ? ['ricart-agrawala:stale-ignored'] : undefined,
        traceDir: '.traces',
      });
    }

    it('ricart-agrawala-1: entry and exit complete at once with no message; CSMIC violations still reject', async () => {
      const cluster = createCluster({ factory: ricartAgrawala(), spec: mutexSpec(1) });
      const cs = cluster.objects[0]!;
      await expect(cs.exit()).rejects.toBeInstanceOf(CSMICError);
      const entry = cs.entry();
      expect(cs.state).toBe('InCS');
      expect(cs.pending).toBe('entry');
      await expect(cs.entry()).rejects.toBeInstanceOf(CSMICError);
      await entry;
      await expect(cs.entry()).rejects.toBeInstanceOf(CSMICError);
      await cs.exit();
      expect(cs.state).toBe('OutCS');
      expect(cluster.net.counters().sent).toBe(0);
    });
  });
}
