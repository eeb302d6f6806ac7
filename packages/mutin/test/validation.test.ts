import { ConfigurationError, CoterieError, type CSState, globalSpec } from '@critsec/core';
import { type Coterie, grid, majority } from '@critsec/coteries';
import { maekawa } from '@critsec/mutex';
import { createCluster } from '@critsec/harness';
import { centralMutex, StubCS } from '@critsec/testing';
import { SimNetwork } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { type MutinCS, mutin } from '../src/index.js';

/** Makes process `id` of a fresh network of `n`; returns the error it threw (and checks nothing was sent). */
function make(factory: ReturnType<typeof mutin>, n: number, initial: readonly CSState[], id = 0): unknown {
  const net = new SimNetwork({ n });
  try {
    factory({ id, n, endpoint: net.endpoint(id), initial });
    return null;
  } catch (err) {
    return err;
  } finally {
    expect(net.counters().sent).toBe(0);
  }
}

const out = (n: number): CSState[] => Array.from({ length: n }, () => 'OutCS');

describe('mutin validates its configuration before any message', () => {
  it('rejects l outside 0 ≤ l < n with a ConfigurationError naming l and n', () => {
    expect(() => mutin({ l: -1, coterie: majority(3) })).toThrow(ConfigurationError);
    expect(() => mutin({ l: 1.5, coterie: majority(3) })).toThrow(/integer ≥ 0/);
    const err = make(mutin({ l: 3, coterie: majority(3) }), 3, ['InCS', 'InCS', 'InCS']);
    expect(err).toBeInstanceOf(ConfigurationError);
    expect((err as Error).message).toMatch(/0 ≤ l < n = 3.*got l = 3/);
  });

  it('rejects a coterie over another n', () => {
    const err = make(mutin({ l: 1, coterie: grid(9) }), 4, ['InCS', 'OutCS', 'OutCS', 'OutCS']);
    expect(err).toBeInstanceOf(ConfigurationError);
    expect((err as Error).message).toMatch(/coterie is over n = 9 .* n = 4/);
  });

  it('rejects a hand-made coterie whose quorums do not intersect (CoterieError naming them)', () => {
    const quorums = [
      [0, 1],
      [2, 3],
      [0, 2],
      [1, 3],
    ];
    const bad: Coterie = {
      ...majority(4),
      n: 4,
      quorums,
      quorumOf: (i: number) => quorums[i]!,
      reportersOf: (i: number) => quorums.flatMap((q, k) => (q.includes(i) ? [k] : [])),
    } as unknown as Coterie;
    const err = make(mutin({ l: 0, coterie: bad, mx: centralMutex() }), 4, out(4));
    expect(err).toBeInstanceOf(CoterieError);
    expect((err as Error).message).toMatch(/do not intersect/);
  });

  it('rejects a coterie whose reportersOf disagrees with its quorums', () => {
    const base = majority(3);
    const lying = {
      n: 3,
      kind: 'lying',
      quorums: base.quorums,
      quorumOf: (i: number) => base.quorumOf(i),
      reportersOf: () => [0],
    } as unknown as Coterie;
    const err = make(mutin({ l: 0, coterie: lying, mx: centralMutex() }), 3, out(3));
    expect(err).toBeInstanceOf(CoterieError);
    expect((err as Error).message).toMatch(/reportersOf\(0\)/);
  });

  it('rejects an initial configuration with fewer than l InCS, naming the count', () => {
    const err = make(mutin({ l: 2, coterie: majority(5) }), 5, ['OutCS', 'InCS', 'OutCS', 'OutCS', 'OutCS']);
    expect(err).toBeInstanceOf(ConfigurationError);
    expect((err as Error).message).toMatch(
      /unsafe for MUTIN\(2\): 1 process\(es\) InCS \(P1\), expected at least l = 2/,
    );
  });

  it('rejects a non-factory coterie / mx early, and an mx that is not a plain mutual exclusion', () => {
    expect(() => mutin({ l: 0, coterie: {} as Coterie })).toThrow(/coterie must be a Coterie/);
    expect(() => mutin({ l: 0, coterie: majority(3), mx: 3 as never })).toThrow(/mx must be/);
    const withRequest = ((ctx: { id: number }) =>
      new StubCS<number>(ctx.id, 'OutCS', { takesRequest: true })) as unknown as ReturnType<typeof mutin>;
    const err = make(mutin({ l: 0, coterie: majority(3), mx: withRequest }), 3, out(3));
    expect(err).toBeInstanceOf(ConfigurationError);
    expect((err as Error).message).toMatch(/plain mutual exclusion/);
  });

  it('the harness refuses an unsafe cluster before the factory runs; a safe one starts with procsInCS from R_i', () => {
    expect(() =>
      createCluster({
        factory: mutin({ l: 2, coterie: majority(3) }),
        spec: globalSpec(2, 3, 3),
        initial: out(3),
      }),
    ).toThrow(ConfigurationError);
    const coterie = grid(9);
    const initial: CSState[] = out(9).map((_, i) => (i % 2 === 0 ? 'InCS' : 'OutCS'));
    const cluster = createCluster({ factory: mutin({ l: 3, coterie }), spec: globalSpec(3, 9, 9), initial });
    for (let i = 0; i < 9; i++) {
      const o = cluster.objects[i] as MutinCS;
      expect(o.Q).toEqual(coterie.quorumOf(i));
      expect(o.R).toEqual(coterie.reportersOf(i));
      expect([...o.procsInCS].sort((a, b) => a - b)).toEqual(
        coterie.reportersOf(i).filter((j) => j % 2 === 0),
      );
      expect(o.reqCnt).toBe(0);
      expect(o.responseAgainTo).toBeNull();
    }
    expect(cluster.net.counters().sent).toBe(0);
  });

  it('uses maekawa as the default mx, on the channel mx', async () => {
    const coterie = majority(3);
    const cluster = createCluster({ factory: mutin({ l: 1, coterie }), spec: globalSpec(1, 3, 3) });
    const same = createCluster({
      factory: mutin({ l: 1, coterie, mx: maekawa({ coterie }) }),
      spec: globalSpec(1, 3, 3),
    });
    for (const c of [cluster, same]) {
      await c.objects[1]!.entry();
      const exit = c.objects[0]!.exit();
      await c.net.run();
      await exit;
      expect(c.objects[0]!.state).toBe('OutCS');
    }
    expect(cluster.net.counters().byType).toEqual(same.net.counters().byType);
    expect(Object.keys(cluster.net.counters().byChannel).sort()).toEqual(['', 'mx']);
  });
});
