import { checkConfiguration, ConfigurationError, type Graph, globalSpec, localSpec } from '@critsec/core';
import { createCluster } from '@critsec/harness';
import { describe, expect, it } from 'vitest';
import {
  ABILENE_LINKS,
  abilene,
  complete,
  graphFromJson,
  grid,
  lkcs,
  lkcsPlan,
  localBounds,
  lmutex,
  lmutin,
  misInitial,
  parseGraph,
  randomGraph,
  ring,
  safeInitial,
  star,
} from '../src/index.js';

const edges = (g: Graph) => g.neighbors.reduce((s, nb) => s + nb.length, 0) / 2;

describe('graph builders', () => {
  it('ring, grid, star, complete have the expected sizes and degrees', () => {
    expect(ring(5).neighbors[0]).toEqual([1, 4]);
    expect(edges(grid(3, 4))).toBe(17);
    expect(grid(3, 3).neighbors[4]).toEqual([1, 3, 5, 7]);
    expect(star(4).neighbors[0]).toEqual([1, 2, 3, 4]);
    expect(edges(complete(6))).toBe(15);
  });
  it('randomGraph is deterministic per seed and connected', () => {
    const a = randomGraph(30, 0.05, 9);
    expect(randomGraph(30, 0.05, 9)).toEqual(a);
    expect(randomGraph(30, 0.05, 10)).not.toEqual(a);
    const seen = new Set([0]);
    const queue = [0];
    for (const u of queue) {
      for (const v of a.neighbors[u]!) {
        if (seen.has(v)) continue;
        seen.add(v);
        queue.push(v);
      }
    }
    expect(seen.size).toBe(30);
  });
  it('Abilene: 11 PoPs, 14 links, named after SNDlib', () => {
    const { graph, names } = abilene();
    expect(graph.n).toBe(11);
    expect(edges(graph)).toBe(14);
    expect(ABILENE_LINKS).toHaveLength(14);
    expect(names[graph.neighbors[names.indexOf('DNVRng')]![0]!]).toBe('KSCYng');
  });
  it('parseGraph reads the CLI notation and rejects anything else', () => {
    expect(parseGraph('ring:20').n).toBe(20);
    expect(parseGraph('grid:5x5').n).toBe(25);
    expect(parseGraph('grid:2x3').n).toBe(6);
    expect(parseGraph('star:8').n).toBe(9);
    expect(parseGraph('complete:6').n).toBe(6);
    expect(parseGraph('random:30:0.2').n).toBe(30);
    expect(parseGraph('abilene').n).toBe(11);
    expect(() => parseGraph('torus:3')).toThrow(ConfigurationError);
    expect(() => parseGraph('ring:2')).toThrow(/ring\(n\): expected an integer ≥ 3, got 2/);
    expect(() => parseGraph('random:10:1.5')).toThrow(/probability/);
  });
  it('graphFromJson validates symmetry and self-loops', () => {
    expect(graphFromJson({ neighbors: [[1], [0]] }).n).toBe(2);
    expect(
      graphFromJson({
        n: 3,
        edges: [
          [0, 1],
          [1, 2],
        ],
      }).neighbors[1],
    ).toEqual([0, 2]);
    expect(() => graphFromJson({ neighbors: [[1], []] })).toThrow(/not symmetric/);
    expect(() => graphFromJson({ neighbors: [[0]] })).toThrow(/contains 0 itself/);
    expect(() => graphFromJson({ n: 2, edges: [[0, 5]] })).toThrow(/names process 5/);
    expect(() => graphFromJson('x')).toThrow(ConfigurationError);
  });
});

describe('bounds and initial configurations (Sec. 2.2)', () => {
  it('bounds out of range name the process and the value', () => {
    expect(() => localBounds(ring(4), 0, 4)).toThrow(/P0 needs .*k_0 = 4/);
    expect(() => localBounds(ring(4), [0, 0, 0], 1)).toThrow(/expected 4 values/);
    expect(() => localBounds(ring(4), 1.5, 3)).toThrow(/l_0 must be an integer, got 1.5/);
    expect(() => lmutin({ graph: ring(4), l: 3 })).toThrow(/P0 needs .*l_0 = 3/);
    expect(() => lmutex({ graph: ring(4), k: 0 })).toThrow(
      /lmutex: P0 needs 1 ≤ k_i ≤ \|N_i\|\+1 = 3, got k_0 = 0/,
    );
  });
  it('misInitial is safe for (1, |N_i|) on every family; safeInitial finds one for tighter bounds', () => {
    for (const g of [ring(7), grid(4, 4), complete(5), abilene().graph]) {
      const spec = localBounds(g, 1, (_i, d) => d);
      expect(checkConfiguration(spec, misInitial(g))).toBeNull();
    }
    for (const g of [ring(7), grid(4, 4), star(6), complete(5), randomGraph(20, 0.2, 3), abilene().graph]) {
      const tight = localBounds(g, 1, (_i, d) => Math.min(2, d + 1));
      expect(checkConfiguration(tight, safeInitial(tight))).toBeNull();
    }
  });
  it('safeInitial reports an impossible spec', () => {
    // a triangle where P0 wants ≥ 2 of the three InCS and P1 wants ≤ 1 of the same three
    expect(() => safeInitial(localSpec(complete(3), [2, 0, 0], [3, 1, 3]), { maxSteps: 50 })).toThrow(
      /no safe initial configuration/,
    );
  });
  it('an unsafe initial configuration is refused by the factory, naming the process', () => {
    const g = ring(5);
    const spec = localBounds(g, 1, 3);
    expect(() =>
      createCluster({
        factory: lmutin({ graph: g, l: 1 }),
        spec: localBounds(g, 0, 3),
        initial: Array(5).fill('OutCS'),
      }),
    ).toThrow(/lmutin: unsafe initial configuration: 0 InCS in N_0 ∪ \{0\}, fewer than l_0 = 1/);
    expect(() =>
      createCluster({
        factory: lmutex({ graph: g, k: 1 }),
        spec: localBounds(g, 0, 3),
        initial: Array(5).fill('InCS'),
      }),
    ).toThrow(/lmutex: unsafe initial configuration: 3 InCS in N_0 ∪ \{0\}, more than k_0 = 1/);
    expect(spec.kind).toBe('local');
  });
  it('a graph that is not symmetric, has a self-loop, or a wrong n is refused', () => {
    const bad = { n: 2, neighbors: [[1], []] } as unknown as Graph;
    expect(() => lmutin({ graph: bad, l: 0 })).toThrow(/not symmetric/);
    expect(() => lmutin({ graph: { n: 1, neighbors: [[0]] } as unknown as Graph, l: 0 })).toThrow(/itself/);
    expect(() => lmutin({ graph: 'ring' as unknown as Graph, l: 0 })).toThrow(/graph must be a Graph/);
    const g = ring(4);
    expect(() =>
      createCluster({ factory: lmutin({ graph: g, l: 0 }), spec: localBounds(ring(5), 0, 3) }),
    ).toThrow(/graph has n = 4 processes but the cluster has n = 5/);
  });
  it('on a complete graph the local problem is the global one', () => {
    const g = complete(5);
    const local = localBounds(g, 2, 4);
    const global = globalSpec(2, 4, 5);
    for (let mask = 0; mask < 32; mask++) {
      const states = Array.from(
        { length: 5 },
        (_, i) => ((mask >> i) & 1 ? 'InCS' : 'OutCS') as 'InCS' | 'OutCS',
      );
      expect(checkConfiguration(local, states) === null).toBe(checkConfiguration(global, states) === null);
    }
  });
});

describe('LKCS preconditions (Sec. 5.1)', () => {
  it('picks the valid leader of highest degree and tightens within two hops', () => {
    const plan = lkcsPlan(complete(6), 1, 4);
    expect(plan.leader).toBe(0);
    expect(plan.tightened.l).toEqual([2, 2, 2, 2, 2, 2]);
    expect(plan.tightened.k).toEqual([3, 3, 3, 3, 3, 3]);
    const g = grid(5, 5);
    const p = lkcsPlan(g, 0, (_i, d) => Math.min(d + 1, 4));
    expect(p.leader).toBe(6); // the first interior process of highest degree
    expect(p.tightened.l[24]).toBe(0); // far corner: beyond two hops, untouched
    expect(p.tightened.l[8]).toBe(1);
  });
  it('names the process and the value when no leader fits or the given one does not', () => {
    expect(() => lkcs({ graph: ring(8), l: 0, k: 3 })).toThrow(
      /no process can be the leader .*\|N_0\| = 2 < 4/,
    );
    expect(() => lkcs({ graph: star(5), l: 0, k: (_i, d) => d + 1 })).toThrow(
      /P1 is within two hops of P0 but k_1 − l_1 = 2 − 0 = 2 < 3/,
    );
    expect(() => lkcs({ graph: abilene().graph, l: 0, k: (_i, d) => d + 1 })).toThrow(
      /no process can be the leader/,
    );
    expect(() => lkcs({ graph: complete(6), l: 2, k: 4 })).toThrow(/k_0 − l_0 = 4 − 2 = 2 < 3/);
    expect(() => lkcs({ graph: complete(6), l: 1, k: 4, leader: 9 })).toThrow(
      /leader must be a process id 0..5, got 9/,
    );
    expect(() => lkcs({ graph: grid(3, 3), l: 0, k: 3, leader: 0 })).toThrow(
      /P0 cannot be the leader: \|N_0\| = 2 < 4/,
    );
  });
  it('refuses an initial configuration that breaks the tightened bounds (L_i, K_i)', () => {
    const g = complete(6);
    // 4 InCS is safe for (1, 4) but not for (L, K) = (2, 3)
    const initial = ['InCS', 'InCS', 'InCS', 'InCS', 'OutCS', 'OutCS'] as const;
    expect(() =>
      createCluster({ factory: lkcs({ graph: g, l: 1, k: 4 }), spec: localBounds(g, 1, 4), initial }),
    ).toThrow(/lkcs \(L_i, K_i\): unsafe initial configuration: 4 InCS in N_0 ∪ \{0\}, more than k_0 = 3/);
  });
});
