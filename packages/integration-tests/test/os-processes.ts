/**
 * Issue #6, "What it must show" (2): the same algorithms as n separate OS processes over
 * TCP/TLS on loopback, through the launcher of @critsec/cluster, checked by its sound
 * shared-log check: zero violations, every process completes its rounds. The n = 5 and n = 9
 * cases run in the long suite (`os-processes.long.test.ts`); `npm test` keeps an n = 5 Maekawa
 * cluster of OS processes in `@critsec/cluster`'s `launcher.test.ts`.
 */
import type { CSState } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import type { ClusterAlgorithmParams } from '../src/cluster-algorithm.js';
import { closeAfterEach } from './helpers/cleanup.js';
import { startOsCluster } from './helpers/os-cluster.js';

const ROUNDS = 15;

const firstInCS = (n: number, l: number): CSState[] =>
  Array.from({ length: n }, (_, i) => (i < l ? 'InCS' : 'OutCS'));

/** One OS-process cluster run: the algorithm, n, and the bounds its shared log must keep. */
export interface OsCase {
  readonly name: string;
  readonly n: number;
  readonly params: ClusterAlgorithmParams;
  readonly l: number;
  readonly k: number;
}

export const maekawaGrid = (n: number): OsCase => ({
  name: 'maekawa (grid)',
  n,
  params: { algorithm: 'mutex', coterie: 'grid' },
  l: 0,
  k: 1,
});

export const gcsGrid = (n: number, l: number, k: number): OsCase => ({
  name: `gcs (l = ${l}, k = ${k}, grid)`,
  n,
  params: { algorithm: 'gcs', l, k, coterie: 'grid' },
  l,
  k,
});

/** Registers one test per case. */
export function osProcessTests(cases: readonly OsCase[]): void {
  const track = closeAfterEach();
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
}
