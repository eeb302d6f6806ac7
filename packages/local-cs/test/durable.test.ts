/**
 * Crash recovery of LMUTIN, LMUTEX and LKCS (issue 27; `src/lmutin-durable.ts`,
 * `src/lkcs-durable.ts`, `src/arbiter-durable.ts`): the durable state round-trips exactly after
 * every message of seeded runs (the copy the factory builds from it has the same durable state and
 * the same `inspect()`); `recover()` withdraws a waiting LMUTIN exit and enters an OutCS LMUTIN
 * process; a recovered state that is not this process's, or not one the rules reach, is refused
 * with a ConfigurationError.
 */
import { isDeepStrictEqual } from 'node:util';
import {
  ConfigurationError,
  type CSFactory,
  type CSObject,
  type DurableCSObject,
  type Endpoint,
  isDurableCSObject,
} from '@critsec/core';
import { createCluster, runWorkload } from '@critsec/harness';
import { SimNetwork } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { complete, localBounds, localCsDescriptor, lmutin, ring } from '../src/index.js';
import { type Instance, lkcsFamilies, lmutexFamilies, lmutinFamilies } from './families.js';

const durable = (cs: CSObject): DurableCSObject => {
  if (!isDurableCSObject(cs)) throw new Error(`P${cs.id}'s object is not durable`);
  return cs;
};
const inspect = (o: CSObject) => (o as unknown as { inspect(): unknown }).inspect();

/** `x.factory`, with every object rebuilt from its durable state after each message and compared. */
function roundTrip(x: Instance, found: string[], checks: { count: number }): CSFactory {
  const spare = new SimNetwork({ n: x.graph.n });
  return (ctx) => {
    let cs: CSObject | undefined;
    const ep = ctx.endpoint;
    const endpoint: Endpoint = {
      self: ep.self,
      peers: ep.peers,
      path: ep.path,
      send: (to, msg) => ep.send(to, msg),
      channel: (name) => ep.channel(name),
      onMessage: (fn) =>
        ep.onMessage((from, msg) => {
          fn(from, msg);
          if (cs === undefined) return;
          checks.count++;
          const saved = durable(cs).durableState();
          const json = JSON.parse(JSON.stringify(saved)) as typeof saved;
          const copy = durable(x.factory({ ...ctx, endpoint: spare.endpoint(ctx.id), recovered: json }));
          if (!isDeepStrictEqual(copy.durableState(), saved)) found.push(`P${cs.id}: durableState() differs`);
          else if (!isDeepStrictEqual(inspect(copy), inspect(cs))) found.push(`P${cs.id}: inspect() differs`);
          else if (copy.state !== cs.state) found.push(`P${cs.id}: state differs`);
          void copy.close();
        }),
    };
    cs = x.factory({ ...ctx, endpoint });
    return cs;
  };
}

describe('durableState() round-trips after every message (seeded runs)', () => {
  const cases: [Instance, number][] = [
    [lmutinFamilies()[0]!, 10],
    [lmutinFamilies()[3]!, 10],
    [lmutexFamilies()[1]!, 5],
    [lkcsFamilies()[0]!, 3],
  ];
  for (const [x, seeds] of cases) {
    it(`${x.name}: ${seeds} seeds, the copy built from it equals the original`, async () => {
      const found: string[] = [];
      const checks = { count: 0 };
      for (let seed = 1; seed <= seeds && found.length === 0; seed++) {
        const factory = roundTrip(x, found, checks);
        const cluster = createCluster({ factory, spec: x.spec, initial: x.initial, seed });
        const r = await runWorkload(cluster, { rounds: 3 });
        await cluster.close();
        if (!r.ok) found.push(`seed ${seed}: ${r.failure ?? 'not ok'}`);
      }
      expect(found.slice(0, 3)).toEqual([]);
      expect(checks.count).toBeGreaterThan(500);
    });
  }
});

describe('recover() and recovered states', () => {
  const graph = ring(3);
  const factory = lmutin({ graph, l: 1 });
  const initial = ['InCS', 'OutCS', 'OutCS'] as const;

  it('LMUTIN: a recovered waiting exit is withdrawn (Release to N_i ∪ {P_i}); the process rests InCS', async () => {
    const c = createCluster({ factory, spec: localBounds(graph, 1, 3), initial: [...initial] });
    const p0 = c.objects[0]!;
    const exit = p0.exit();
    // the state a crash left while the exit waited: rebuilt on a spare endpoint
    const saved = JSON.parse(JSON.stringify(durable(p0).durableState()));
    expect(saved.waiting).toBe(true);
    const spare = new SimNetwork({ n: 3 });
    const copy = durable(
      factory({ id: 0, n: 3, endpoint: spare.endpoint(0), initial: [...initial], recovered: saved }),
    );
    expect(copy.state).toBe('InCS');
    expect(inspect(copy)).toMatchObject({ waiting: true });
    await copy.recover();
    expect(copy.state).toBe('InCS');
    expect(inspect(copy)).toMatchObject({ waiting: false, nGrants: [] });
    await copy.close();
    void exit.catch(() => {});
    await c.close();
  });

  it('LMUTIN: a recovered OutCS process enters at recover()', async () => {
    const spare = new SimNetwork({ n: 3 });
    const fresh = durable(factory({ id: 1, n: 3, endpoint: spare.endpoint(1), initial: [...initial] }));
    const saved = JSON.parse(JSON.stringify(fresh.durableState()));
    const copy = durable(
      factory({
        id: 1,
        n: 3,
        endpoint: new SimNetwork({ n: 3 }).endpoint(1),
        initial: [...initial],
        recovered: saved,
      }),
    );
    expect(copy.state).toBe('OutCS');
    await copy.recover();
    expect(copy.state).toBe('InCS');
  });

  it('a state of another process, graph, bound or algorithm, or an incoherent one, is a ConfigurationError', () => {
    const spare = new SimNetwork({ n: 3 });
    const ctx = { id: 1, n: 3, endpoint: spare.endpoint(1), initial: [...initial] };
    const good = JSON.parse(JSON.stringify(durable(factory(ctx)).durableState()));
    const bad: [string, unknown, RegExp][] = [
      ['another format', { ...good, format: 'critsec/maekawa@1' }, /not a critsec\/lmutin@1 state \(format/],
      ['another process', { ...good, id: 2 }, /it is P2's of a cluster of 3/],
      ['another bound', { ...good, l: 0 }, /saved with l_1 = 0/],
      ['OutCS without grants', { ...good, nGrants: [0] }, /OutCS without every grant/],
      ['a stranger granted', { ...good, arbiter: { ...good.arbiter, pendingReq: [[7, 1, 1]] } }, /names P7/],
      ['not JSON of the shape', 42, /not a critsec\/lmutin@1 state/],
    ];
    for (const [name, recovered, why] of bad) {
      const spareEp = new SimNetwork({ n: 3 }).endpoint(1);
      expect(() => factory({ ...ctx, endpoint: spareEp, recovered: recovered as never }), name).toThrow(
        ConfigurationError,
      );
      expect(() => factory({ ...ctx, endpoint: spareEp, recovered: recovered as never }), name).toThrow(why);
    }
    // on another graph
    const other = lmutin({ graph: complete(3), l: 1 });
    expect(() =>
      other({
        ...ctx,
        endpoint: new SimNetwork({ n: 3 }).endpoint(1),
        recovered: { ...good, neighborhood: [0, 1] },
      }),
    ).toThrow(/the graph gives \{0, 1, 2\}/);
  });

  it('LKCS: a critsec/lkcs@1 state is refused (its sidetrack grants were held under tag 0, README deviation 6)', () => {
    const x = lkcsFamilies()[0]!; // complete:5 (1,4)
    const ctx = { id: 1, n: 5, endpoint: new SimNetwork({ n: 5 }).endpoint(1), initial: [...x.initial] };
    const good = JSON.parse(JSON.stringify(durable(x.factory(ctx)).durableState()));
    expect(good.format).toBe('critsec/lkcs@2');
    const endpoint = new SimNetwork({ n: 5 }).endpoint(1);
    expect(x.factory({ ...ctx, endpoint, recovered: good }).state).toBe(x.initial[1]);
    const old = { ...good, format: 'critsec/lkcs@1' };
    expect(() => x.factory({ ...ctx, endpoint, recovered: old })).toThrow(ConfigurationError);
    expect(() => x.factory({ ...ctx, endpoint, recovered: old })).toThrow(
      /not a critsec\/lkcs@2 state \(format/,
    );
  });

  it('the descriptor declares crash recovery', () => {
    expect(localCsDescriptor.crashRecovery).toBe(true);
  });
});
