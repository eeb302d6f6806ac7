import { ConfigurationError } from '@critsec/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildCoterie,
  nearestCoterieSize,
  PROJECTIVE_PLANE_SIZES,
  paperBounds,
  parseInit,
  parseInteger,
  resolveBench,
  resolveCluster,
  resolveClusterRun,
  resolveSimulation,
  wallWidths,
} from '../src/index.js';

function message(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigurationError);
    const m = (err as Error).message;
    expect(m).not.toContain('\n');
    return m;
  }
  throw new Error('expected a ConfigurationError');
}

describe('resolveCluster', () => {
  it('gives the documented defaults: n = 25, l = 3, k = 10, grid, maekawa, the first l InCS', () => {
    const c = resolveCluster({ algorithm: 'gcs' });
    expect([c.n, c.l, c.k, c.coterieName, c.mx]).toEqual([25, 3, 10, 'grid', 'maekawa']);
    expect(c.quorumSize).toEqual({ min: 9, max: 9 });
    expect(c.initial.filter((s) => s === 'InCS')).toHaveLength(3);
    expect(c.initial.slice(0, 3)).toEqual(['InCS', 'InCS', 'InCS']);
    expect(c.initialDescription).toContain('P0–P2 InCS');
    expect(c.spec).toMatchObject({ kind: 'global', l: 3, k: 10, n: 25 });
  });

  it('caps the default l and k to fit a small n', () => {
    const c = resolveCluster({ algorithm: 'gcs', n: 4 });
    expect([c.l, c.k]).toEqual([3, 4]);
    const d = resolveCluster({ algorithm: 'gcs', n: 1 });
    expect([d.l, d.k]).toEqual([0, 1]);
    expect(resolveCluster({ algorithm: 'mutin', n: 2 }).l).toBe(1);
  });

  it('fixes l and k by the problem each algorithm solves', () => {
    expect(resolveCluster({ algorithm: 'mutex' })).toMatchObject({ l: 0, k: 1, mx: null });
    expect(resolveCluster({ algorithm: 'ricart-agrawala' })).toMatchObject({
      l: 0,
      k: 1,
      coterie: null,
      coterieName: null,
      quorumSize: null,
    });
    expect(resolveCluster({ algorithm: 'mutin', l: 5 })).toMatchObject({ l: 5, k: 25 });
    expect(resolveCluster({ algorithm: 'kmutex', k: 4 })).toMatchObject({ l: 0, k: 4 });
    expect(message(() => resolveCluster({ algorithm: 'kmutex', l: 2 }))).toBe(
      'kmutex solves k-mutual exclusion, the (0,k)-CS, so --l must be 0 (or left out), got 2',
    );
    expect(message(() => resolveCluster({ algorithm: 'mutex', k: 3 }))).toContain('--k must be 1');
    expect(message(() => resolveCluster({ algorithm: 'mutin', k: 3 }))).toContain('--k must be 25');
  });

  it('rejects l ≥ k, k > n and n < 1 with what is accepted', () => {
    expect(message(() => resolveCluster({ algorithm: 'gcs', l: '5', k: '5' }))).toBe(
      '--l must be smaller than --k: the (l,k)-CS needs 0 ≤ l < k ≤ n; got l = 5, k = 5 (n = 25)',
    );
    expect(message(() => resolveCluster({ algorithm: 'gcs', l: 7, k: 3 }))).toContain('l = 7, k = 3');
    expect(message(() => resolveCluster({ algorithm: 'gcs', k: 30 }))).toContain('--k must be at most --n');
    expect(message(() => resolveCluster({ algorithm: 'gcs', n: '0' }))).toBe(
      "--n must be an integer ≥ 1, got '0'",
    );
    expect(message(() => resolveCluster({ algorithm: 'gcs', n: '-3' }))).toContain('≥ 1');
    expect(message(() => resolveCluster({ algorithm: 'gcs', n: '2.5' }))).toContain("got '2.5'");
    expect(message(() => resolveCluster({ algorithm: 'mutin', n: 3, l: 3 }))).toContain(
      '--l must be smaller than --k',
    );
  });

  it('rejects unknown algorithms, coteries and mx, listing the accepted ones', () => {
    expect(message(() => resolveCluster({ algorithm: 'paxos' }))).toBe(
      "unknown algorithm 'paxos'; accepted: mutex, ricart-agrawala, mutin, kmutex, gcs, h-out-of-k, group-mutex, local-cs",
    );
    expect(message(() => resolveCluster({ algorithm: 'gcs', coterie: 'hex' }))).toBe(
      "unknown coterie 'hex'; accepted: majority, grid, projective-plane, tree, wall",
    );
    expect(message(() => resolveCluster({ algorithm: 'gcs', mx: 'lamport' }))).toBe(
      "unknown mx 'lamport'; accepted: maekawa, ricart-agrawala",
    );
  });

  it('rejects a projective plane of non-prime-power order and sizes that are not q²+q+1', () => {
    expect(
      message(() => resolveCluster({ algorithm: 'mutex', n: 43, coterie: 'projective-plane' })),
    ).toContain('q = 6, which is not a prime power');
    expect(
      message(() => resolveCluster({ algorithm: 'mutex', n: 25, coterie: 'projective-plane' })),
    ).toContain('n = 25 is not of that form (nearest: 21 or 31)');
    const ok = resolveCluster({ algorithm: 'mutex', n: 31, coterie: 'projective-plane' });
    expect(ok.quorumSize).toEqual({ min: 6, max: 6 });
  });

  it('rejects tree sizes that are not 2^h − 1', () => {
    expect(message(() => resolveCluster({ algorithm: 'mutex', n: 20, coterie: 'tree' }))).toContain(
      'nearest: 15 or 31',
    );
    expect(resolveCluster({ algorithm: 'mutex', n: 15, coterie: 'tree' }).quorumSize).toEqual({
      min: 4,
      max: 4,
    });
  });

  it('checks the initial configuration is safe, naming a safe one', () => {
    expect(message(() => resolveCluster({ algorithm: 'gcs', init: 'none' }))).toBe(
      '--init none: 0 process(es) InCS is not a safe initial configuration for the (3,10)-CS over 25 processes; it needs between 3 and 10 InCS (e.g. --init first:3)',
    );
    expect(message(() => resolveCluster({ algorithm: 'mutex', init: '0,1' }))).toContain('between 0 and 1');
    const c = resolveCluster({ algorithm: 'gcs', init: '4,9,11,20' });
    expect(c.initial.flatMap((s, i) => (s === 'InCS' ? [i] : []))).toEqual([4, 9, 11, 20]);
    expect(c.initialDescription).toBe('P4, P9, P11, P20 InCS, the rest OutCS');
  });
});

describe('parseInit / parseInteger', () => {
  it('reads every documented form', () => {
    const inCS = (t: string) => parseInit(t, 5, 2).flatMap((s, i) => (s === 'InCS' ? [i] : []));
    expect(inCS('default')).toEqual([0, 1]);
    expect(inCS('none')).toEqual([]);
    expect(inCS('all')).toEqual([0, 1, 2, 3, 4]);
    expect(inCS('first:3')).toEqual([0, 1, 2]);
    expect(inCS('4,1')).toEqual([1, 4]);
    expect(message(() => parseInit('7', 5, 0))).toBe('--init: process 7 is out of range; processes are 0..4');
    expect(message(() => parseInit('first:9', 5, 0))).toContain('only n = 5');
    expect(message(() => parseInit('P1', 5, 0))).toContain('accepted: default, none, all, first:M');
  });

  it('accepts integers only, within range', () => {
    expect(parseInteger('n', '12', 1)).toBe(12);
    expect(parseInteger('n', 12, 1)).toBe(12);
    expect(message(() => parseInteger('port', '70000', 1, 65535))).toBe(
      "--port must be an integer in 1..65535, got '70000'",
    );
    expect(message(() => parseInteger('n', '1e3', 1))).toContain("got '1e3'");
    expect(message(() => parseInteger('n', '', 1))).toContain("got ''");
  });
});

describe('resolveSimulation / resolveBench / resolveClusterRun', () => {
  it('has the documented defaults and validates the workload options', () => {
    const s = resolveSimulation({ algorithm: 'gcs' });
    expect([s.rounds, s.seed, s.delay, s.workload, s.think, s.hold]).toEqual([
      20,
      1,
      { kind: 'unit' },
      'concurrent',
      2,
      1,
    ]);
    expect(resolveSimulation({ algorithm: 'gcs', delay: 'exponential:3' }).delay).toEqual({
      kind: 'exponential',
      mean: 3,
    });
    expect(message(() => resolveSimulation({ algorithm: 'gcs', delay: 'gauss:1' }))).toContain(
      'unit, constant:D, uniform:MIN:MAX or exponential:MEAN',
    );
    expect(message(() => resolveSimulation({ algorithm: 'gcs', workload: 'bursty' }))).toBe(
      "unknown workload 'bursty'; accepted: concurrent, sequential",
    );
    expect(message(() => resolveSimulation({ algorithm: 'gcs', think: '-1' }))).toBe(
      "--think must be a number ≥ 0, got '-1'",
    );
    expect(message(() => resolveSimulation({ algorithm: 'gcs', rounds: '0' }))).toContain('--rounds');
  });

  it('bench: sizes, subsets and their errors', () => {
    expect(resolveBench({}).sizes).toEqual([16, 64, 256, 1024]);
    expect(resolveBench({ quick: true }).sizes).toEqual([16, 64]);
    expect(resolveBench({ n: '9,25', algorithms: 'gcs,mutex', coteries: 'grid' })).toMatchObject({
      sizes: [9, 25],
      algorithms: ['gcs', 'mutex'],
      coteries: ['grid'],
    });
    expect(message(() => resolveBench({ coteries: 'grid,hex' }))).toContain("unknown coterie 'hex'");
    expect(message(() => resolveBench({ n: '16,x' }))).toContain("--n must be an integer ≥ 1, got 'x'");
  });

  it('cluster: workloads, certificates checked up front', () => {
    expect(message(() => resolveClusterRun({ algorithm: 'gcs', n: 5, workload: 'bursty' }))).toBe(
      "unknown workload 'bursty'; accepted: concurrent, sequential",
    );
    expect(resolveClusterRun({ algorithm: 'gcs', n: 5, l: 1, k: 3, workload: 'sequential' }).workload).toBe(
      'sequential',
    );
    expect(message(() => resolveClusterRun({ algorithm: 'gcs', n: 5, certs: '/nonexistent-dir' }))).toContain(
      'missing ca.pem',
    );
    expect(resolveClusterRun({ algorithm: 'gcs', n: 5, l: 1, k: 3 })).toMatchObject({
      workload: 'concurrent',
      rounds: 20,
      think: 2,
      hold: 1,
    });
  });
});

describe('coteries by name', () => {
  it('wallWidths: a top row of one, then rows of at least 2 summing to n', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3000 }), (n) => {
        const w = wallWidths(n);
        expect(w.reduce((a, b) => a + b, 0)).toBe(n);
        if (n > 2) expect(w[0]).toBe(1);
        for (const x of w.slice(1)) expect(x).toBeGreaterThanOrEqual(2);
      }),
    );
    expect(() => buildCoterie('wall', 64)).not.toThrow();
  });

  it('nearestCoterieSize picks sizes the constructions exist for', () => {
    expect(nearestCoterieSize('projective-plane', 16)).toBe(13);
    expect(nearestCoterieSize('projective-plane', 64)).toBe(57);
    expect(nearestCoterieSize('tree', 16)).toBe(15);
    expect(nearestCoterieSize('tree', 1024)).toBe(1023);
    expect(nearestCoterieSize('grid', 100)).toBe(100);
    for (const n of [16, 64, 256, 1024]) {
      expect(PROJECTIVE_PLANE_SIZES).toContain(nearestCoterieSize('projective-plane', n));
      expect(() => buildCoterie('projective-plane', nearestCoterieSize('projective-plane', n))).not.toThrow();
    }
  });
});

describe('paperBounds', () => {
  it('are the papers’ formulas', () => {
    expect(paperBounds({ algorithm: 'mutex', n: 25, maxQuorum: 9 })).toMatchObject({
      messagesPerPair: 27,
      waitingTimeEntry: 2,
      waitingTimeExit: 0,
    });
    expect(paperBounds({ algorithm: 'ricart-agrawala', n: 25, maxQuorum: 0 })).toMatchObject({
      messagesPerPair: 48,
      waitingTimeEntry: 2,
      waitingTimeExit: 0,
    });
    expect(paperBounds({ algorithm: 'mutin', n: 25, maxQuorum: 9 })).toMatchObject({
      messagesPerPair: 81,
      waitingTimeEntry: 2,
      waitingTimeExit: 7,
    });
    expect(
      paperBounds({ algorithm: 'mutin', n: 25, maxQuorum: 9, mx: 'ricart-agrawala' }).messagesPerPair,
    ).toBe(48 + 54);
    expect(paperBounds({ algorithm: 'kmutex', n: 25, maxQuorum: 9 })).toMatchObject({
      messagesPerPair: 81,
      waitingTimeEntry: 7,
      waitingTimeExit: 2,
    });
    const g = paperBounds({ algorithm: 'gcs', n: 25, maxQuorum: 9 });
    expect(g).toMatchObject({ messagesPerPair: 162, waitingTimeEntry: 9, waitingTimeExit: 9 });
    expect(g.source).toContain('Theorem 4');
  });
});
