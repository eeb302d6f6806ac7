/**
 * Crash recovery of compose(a, b), k-mutex and the (l,k)-GCS (issue 27; `src/compose-durable.ts`,
 * `durableState()` and `recover()` of `src/compose.ts`): the durable state round-trips exactly
 * after every event of seeded runs with aborts; processes swapped for objects rebuilt from their
 * durable state keep the cluster safe and live; recovery ends the composite's crashed call as an
 * abort or a completion would; a recovered state that is not this process's, or breaks Lemma 8,
 * is refused; the descriptors say so.
 */
import { ConfigurationError, type CSState, CSMICError, globalSpec, isDurableCSObject } from '@critsec/core';
import { majority } from '@critsec/coteries';
import { createCluster, runWorkload } from '@critsec/harness';
import { centralMutex } from '@critsec/testing';
import { SimNetwork } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { durable, roundTripFactory, swapRestoreRun } from '../../mutin/test/durable-run.js';
import {
  type ComposeDurableState,
  type ComposedObject,
  gcs,
  gcsDescriptor,
  kMutex,
  kMutexDescriptor,
} from '../src/index.js';

const configs = [
  { name: 'kMutex(2), majority(4)', factory: kMutex({ k: 2, coterie: majority(4) }), l: 0, k: 2, n: 4 },
  { name: '(1,3)-GCS, majority(5)', factory: gcs({ l: 1, k: 3, coterie: majority(5) }), l: 1, k: 3, n: 5 },
];

describe('durableState() round-trips after every event (seeded runs with aborted entries)', () => {
  for (const { name, factory, l, k, n } of configs) {
    it(`${name}: 5 seeds, the copy built from it equals the original`, async () => {
      const found: string[] = [];
      const checks = { count: 0 };
      const wrapped = roundTripFactory(factory, found, checks);
      for (let seed = 1; seed <= 5 && found.length === 0; seed++) {
        const cluster = createCluster({ factory: wrapped, spec: globalSpec(l, k, n), seed });
        const r = await runWorkload(cluster, {
          rounds: 2,
          abort: { probability: 0.3, within: 3 },
        });
        await cluster.close();
        if (!r.ok) found.push(`seed ${seed}: ${r.failure ?? 'not ok'}`);
      }
      expect(found).toEqual([]);
      expect(checks.count).toBeGreaterThan(300);
    });
  }
});

describe('swap-restore: processes rebuilt from their durable state mid-run', () => {
  for (const { name, factory, l, k, n } of configs) {
    it(`${name}: 60 seeds, 4 swaps each — 0 violations, every process completes its rounds`, async () => {
      const initial = Array.from({ length: n }, (_, i): CSState => (i <= l ? 'InCS' : 'OutCS'));
      const bad: string[] = [];
      let cut = 0;
      for (let seed = 1; seed <= 60 && bad.length === 0; seed++) {
        const r = await swapRestoreRun(factory, globalSpec(l, k, n), initial, seed, { swaps: 4, rounds: 2 });
        cut += r.cut;
        if (r.violations > 0 || r.stuck.length > 0 || r.problems.length > 0) {
          bad.push(`seed ${seed}: ${r.violations} violations, stuck ${r.stuck}, ${r.problems.join('; ')}`);
        }
      }
      expect(bad).toEqual([]);
      expect(cut).toBeGreaterThan(15);
    });
  }
});

const n = 3;
const factory = gcs({ l: 1, k: 2, coterie: majority(n) });
const start: CSState[] = ['InCS', 'OutCS', 'OutCS'];

/**
 * (1,2)-GCS over majority(3) from `start`; P0 exits (P1 enters first, so the exit can go) or P1
 * enters. The durable state of `who` at the first message of `type` it sends on `path`, through JSON.
 */
async function stateAt(who: 0 | 1, path: 'lmin' | 'kmex', type: string): Promise<ComposeDurableState> {
  const c = createCluster({ factory, spec: globalSpec(1, 2, n), initial: start });
  const p = durable(c.objects[who]!);
  let saved: ComposeDurableState | undefined;
  c.net.onSend((m) => {
    const t = (m.msg as { type: string }).type;
    if (m.from === who && saved === undefined && t === type && m.channel.startsWith(path))
      saved = JSON.parse(JSON.stringify(p.durableState())) as ComposeDurableState;
  });
  const calls = who === 0 ? [c.objects[1]!.entry(), c.objects[0]!.exit()] : [c.objects[1]!.entry()];
  await Promise.all([...calls, c.net.run()]);
  await c.close();
  return saved!;
}

/** Process `id` of the (1,2)-GCS built from `recovered` on a fresh network. */
function rig(id: number, recovered?: unknown) {
  const net = new SimNetwork({ n, seed: 1 });
  const ctx = { id, n, endpoint: net.endpoint(id), initial: start };
  const cs = factory(recovered === undefined ? ctx : { ...ctx, recovered: recovered as never });
  return { net, cs: durable(cs), o: cs as ComposedObject };
}

describe('recover()', () => {
  it('a fresh object resolves at once; CSMICError while a call is in flight', async () => {
    const r = rig(1);
    await r.cs.recover();
    expect(isDurableCSObject(r.cs)).toBe(true);
    const entry = r.cs.entry();
    await expect(r.cs.recover()).rejects.toBeInstanceOf(CSMICError);
    void entry.catch(() => {});
    await r.cs.close();
  });

  it('Entry() cut in kmex.Entry() while waiting for mx: withdrawn — the composite, lmin and kmex stay OutCS', async () => {
    const saved = await stateAt(1, 'kmex', 'REQUEST');
    expect(saved).toMatchObject({ state: 'OutCS', phase: 'b.Entry' });
    const r = rig(1, saved);
    await r.cs.recover();
    await r.net.run();
    expect([r.cs.state, r.o.a.state, r.o.b.state]).toEqual(['OutCS', 'OutCS', 'OutCS']);
    expect(r.cs.durableState()).toMatchObject({ phase: 'idle' });
  });

  it('Entry() cut once kmex.Entry() retracts (Acquire out): completed — kmex, then the composite, then lmin InCS', async () => {
    const saved = await stateAt(1, 'kmex', 'Acquire');
    expect(saved).toMatchObject({ state: 'OutCS', phase: 'b.Entry' });
    const r = rig(1, saved);
    const flips: string[] = [];
    r.cs.on('statechange', (s) => flips.push(s));
    const done = r.cs.recover();
    for (const j of (r.o.b as unknown as { inner: { Q: number[] } }).inner.Q)
      r.net.endpoint(j).channel('kmex').send(1, { type: 'Ack' });
    await r.net.run();
    await done;
    expect([r.cs.state, r.o.a.state, r.o.b.state]).toEqual(['InCS', 'InCS', 'InCS']);
    expect(flips).toEqual(['InCS']);
  });

  it('Exit() cut in lmin.Exit() waiting for l+1: withdrawn — everything stays InCS', async () => {
    const saved = await stateAt(0, 'lmin', 'Query');
    expect(saved).toMatchObject({ state: 'InCS', phase: 'a.Exit' });
    const r = rig(0, saved);
    await r.cs.recover();
    await r.net.run();
    expect([r.cs.state, r.o.a.state, r.o.b.state]).toEqual(['InCS', 'InCS', 'InCS']);
  });
});

describe('a recovered state that is not this process’s is refused with ConfigurationError', async () => {
  const good = await stateAt(1, 'kmex', 'REQUEST');
  const idle = await stateAt(0, 'lmin', 'Query');
  const cases: [string, unknown][] = [
    ['null', null],
    ['another format', { ...good, format: 'critsec/compose@0' }],
    ['an extra field', { ...good, extra: 1 }],
    ['no state of b', { ...good, b: undefined }],
    ["P2's state", { ...good, id: 2 }],
    ['an unknown phase', { ...good, phase: 'c.Exit' }],
    ['a InCS while the composite is OutCS (Lemma 8)', { ...good, a: idle.a }],
    ['idle with a and b apart', { ...idle, phase: 'idle', a: good.a }],
    ['an inner state of another process', { ...good, a: idle.a, b: idle.b, state: 'InCS', phase: 'idle' }],
  ];
  for (const [what, recovered] of cases) {
    it(what, () => {
      expect(() => rig(1, recovered)).toThrow(ConfigurationError);
      expect(() => rig(1, recovered)).toThrow(/cannot resume from its recovered state/);
    });
  }

  it('the good state itself is accepted', () => {
    expect(rig(1, good).cs.durableState()).toEqual(good);
  });

  it('over a mutual exclusion that is not durable the composite is not durable, and refuses a state', () => {
    const plain = gcs({ l: 1, k: 2, coterie: majority(n), mx: centralMutex() });
    const ctx = { id: 1, n, endpoint: new SimNetwork({ n }).endpoint(1), initial: start };
    expect(isDurableCSObject(plain(ctx))).toBe(false);
    expect(() =>
      plain({ ...ctx, endpoint: new SimNetwork({ n }).endpoint(1), recovered: good as never }),
    ).toThrow(ConfigurationError);
  });
});

describe('the descriptors', () => {
  it('say k-mutex and the GCS support crash recovery', () => {
    expect(kMutexDescriptor.crashRecovery).toBe(true);
    expect(gcsDescriptor.crashRecovery).toBe(true);
  });
});
