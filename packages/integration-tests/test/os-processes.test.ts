/**
 * Issue #6, "What it must show" (2): the same algorithms as n separate OS processes over
 * TCP/TLS on loopback, through the launcher of @critsec/cluster, checked by its sound
 * shared-log check: zero violations, every process completes its rounds.
 */
import type { CSState } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import type { ClusterAlgorithmParams } from '../src/cluster-algorithm.js';
import { closeAfterEach } from './helpers/cleanup.js';
import { startOsCluster } from './helpers/os-cluster.js';

const track = closeAfterEach();
const ROUNDS = 15;

const firstInCS = (n: number, l: number): CSState[] =>
  Array.from({ length: n }, (_, i) => (i < l ? 'InCS' : 'OutCS'));

const cases: { name: string; n: number; params: ClusterAlgorithmParams; l: number; k: number }[] = [
  { name: 'maekawa (grid)', n: 5, params: { algorithm: 'mutex', coterie: 'grid' }, l: 0, k: 1 },
  { name: 'maekawa (grid)', n: 9, params: { algorithm: 'mutex', coterie: 'grid' }, l: 0, k: 1 },
  {
    name: 'gcs (l = 1, k = 3, grid)',
    n: 5,
    params: { algorithm: 'gcs', l: 1, k: 3, coterie: 'grid' },
    l: 1,
    k: 3,
  },
  {
    name: 'gcs (l = 2, k = 5, grid)',
    n: 9,
    params: { algorithm: 'gcs', l: 2, k: 5, coterie: 'grid' },
    l: 2,
    k: 5,
  },
];

describe('n OS processes over TCP/TLS, launcher of @critsec/cluster, shared-log check', () => {
  for (const c of cases) {
    it(`${c.name}, n = ${c.n}: every process completes ${ROUNDS} rounds, zero violations`, async () => {
      const cluster = track(
        await startOsCluster({
          n: c.n,
          params: c.params,
          bounds: { l: c.l, k: c.k },
          initial: firstInCS(c.n, c.l),
          rounds: ROUNDS,
          seed: c.n,
        }),
      );
      const result = await cluster.run.done;
      const { check } = result;
      console.log(
        `OS processes, ${c.name}, n = ${c.n}: ok ${result.ok}, ${result.durationMs} ms, ${check.records} log records, ` +
          `${check.violationCount} violations, rounds ${result.reports.map((r) => r?.rounds).join('/')}, ` +
          `entries (with uncounted) ${check.entries.join('/')}, |InCS| certainly ≤ ${check.maxCertainlyInCS}, possibly ≥ ${check.minPossiblyInCS}`,
      );
      expect(result.reason, cluster.stderr.join('\n')).toBeUndefined();
      expect(result.ok).toBe(true);
      expect(result.exits.map((e) => e.code)).toEqual(new Array(c.n).fill(0));
      expect(result.reports.map((r) => r?.rounds)).toEqual(new Array(c.n).fill(ROUNDS));
      expect(check.violationCount).toBe(0);
      expect(check.violations).toEqual([]);
      expect(check.sequenceErrors).toEqual([]);
      expect(result.logMalformed).toBe(0);
      for (const e of check.entries) expect(e).toBeGreaterThanOrEqual(ROUNDS);
      expect(check.maxCertainlyInCS).toBeLessThanOrEqual(c.k);
      expect(check.minPossiblyInCS).toBeGreaterThanOrEqual(c.l);
      for (const r of result.reports) {
        expect(r!.errors).toEqual([]);
        expect(r!.messages.delivered).toBeGreaterThan(0);
        expect(r!.transport.connections).toBe(c.n - 1);
      }
    });
  }
});
