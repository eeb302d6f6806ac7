/**
 * Crash recovery of MUTIN(l) (issue 27; `src/mutin-durable.ts`, `src/mx.ts`, `durableState()` and
 * `recover()` of `src/mutin.ts`): the durable state round-trips exactly after every event of
 * seeded runs (aborted exits are Co-MUTIN's aborted entries: `@critsec/gcs`'s k-mutex round trip); processes swapped for objects rebuilt from their durable state
 * keep the cluster safe and live; recovery withdraws a waiting Exit() and completes a committed
 * one; over a non-durable mx MUTIN is not durable; a recovered state that is not this process's
 * is refused.
 */
import { ConfigurationError, type CSState, CSMICError, globalSpec, isDurableCSObject } from '@critsec/core';
import { grid, majority } from '@critsec/coteries';
import { createCluster, runWorkload } from '@critsec/harness';
import { ricartAgrawala } from '@critsec/mutex';
import { centralMutex } from '@critsec/testing';
import { SimNetwork } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { type MutinCS, type MutinDurableState, mutin, mutinDescriptor } from '../src/index.js';
import { durable, roundTripFactory, swapRestoreRun } from './durable-run.js';

const configs = [
  { name: 'MUTIN(2), majority(5)', factory: mutin({ l: 2, coterie: majority(5) }), l: 2, n: 5, seeds: 8 },
  { name: 'MUTIN(3), grid(9)', factory: mutin({ l: 3, coterie: grid(9) }), l: 3, n: 9, seeds: 3 },
  {
    name: 'MUTIN(1), majority(5), mx = Ricart–Agrawala',
    factory: mutin({ l: 1, coterie: majority(5), mx: ricartAgrawala() }),
    ...{ l: 1, n: 5, seeds: 10 },
  },
];

describe('durableState() round-trips after every event (seeded runs)', () => {
  for (const { name, factory, l, n, seeds } of configs) {
    it(`${name}: ${seeds} seeds, the copy built from it equals the original`, async () => {
      const found: string[] = [];
      const checks = { count: 0 };
      const wrapped = roundTripFactory(factory, found, checks);
      for (let seed = 1; seed <= seeds && found.length === 0; seed++) {
        const cluster = createCluster({ factory: wrapped, spec: globalSpec(l, n, n), seed });
        const r = await runWorkload(cluster, { rounds: 3 });
        await cluster.close();
        if (!r.ok) found.push(`seed ${seed}: ${r.failure ?? 'not ok'}`);
      }
      expect(found).toEqual([]);
      expect(checks.count).toBeGreaterThan(500);
    });
  }
});

const initialOf = (l: number, n: number): CSState[] =>
  Array.from({ length: n }, (_, i) => (i < l + 1 ? 'InCS' : 'OutCS'));

describe('swap-restore: processes rebuilt from their durable state mid-run', () => {
  for (const { name, factory, l, n, seeds } of configs) {
    const runs = seeds * 10;
    it(`${name}: ${runs} seeds, 4 swaps each — 0 violations, every process completes its rounds`, async () => {
      const bad: string[] = [];
      let cut = 0;
      for (let seed = 1; seed <= runs && bad.length === 0; seed++) {
        const r = await swapRestoreRun(factory, globalSpec(l, n, n), initialOf(l, n), seed, { swaps: 4 });
        cut += r.cut;
        if (r.violations > 0 || r.stuck.length > 0 || r.problems.length > 0) {
          bad.push(`seed ${seed}: ${r.violations} violations, stuck ${r.stuck}, ${r.problems.join('; ')}`);
        }
      }
      expect(bad).toEqual([]);
      expect(cut).toBeGreaterThan(runs / 4); // the swaps do cut exits in flight
    });
  }
});

/**
 * MUTIN(1) over majority(3), everyone InCS; P0 exits alone. The durable state of P0 at the first
 * message of `type` it sends (`REQUEST`: waiting for mx; `Query`: waiting for l+1; `Acquire`:
 * retracting), through JSON.
 */
async function stateAt(type: string): Promise<MutinDurableState> {
  const c = createCluster({
    factory: mutin({ l: 1, coterie: majority(3) }),
    spec: globalSpec(1, 3, 3),
    initial: ['InCS', 'InCS', 'InCS'],
  });
  const p0 = durable(c.objects[0]!);
  let saved: MutinDurableState | undefined;
  c.net.onSend((m) => {
    if (m.from === 0 && saved === undefined && (m.msg as { type: string }).type === type)
      saved = JSON.parse(JSON.stringify(p0.durableState())) as MutinDurableState;
  });
  await Promise.all([c.objects[0]!.exit(), c.net.run()]);
  await c.close();
  return saved!;
}

/** P0 of MUTIN(1) over majority(3) built from `recovered` on a fresh network; what it sends, as `to:type`. */
function rig(recovered?: unknown) {
  const net = new SimNetwork({ n: 3, seed: 1 });
  const sent: string[] = [];
  net.onSend((m) => {
    if (m.from === 0) sent.push(`${m.to}:${(m.msg as { type: string }).type}`);
  });
  const ctx = { id: 0, n: 3, endpoint: net.endpoint(0), initial: ['InCS', 'InCS', 'InCS'] as CSState[] };
  const cs = mutin({ l: 1, coterie: majority(3) })(
    recovered === undefined ? ctx : { ...ctx, recovered: recovered as never },
  );
  return { net, sent, cs: durable(cs), p: cs as MutinCS };
}

describe('recover()', () => {
  it('a fresh object resolves at once and sends nothing', async () => {
    const r = rig();
    await r.cs.recover();
    await r.net.run();
    expect(r.sent).toEqual([]);
    expect(isDurableCSObject(r.cs)).toBe(true);
  });

  it('an Exit() waiting for mx is withdrawn: mx gives its request back, the process stays InCS', async () => {
    const saved = await stateAt('REQUEST');
    expect(saved).toMatchObject({ state: 'InCS', phase: 'mx.Entry', reqCnt: 0 });
    const r = rig(saved);
    await r.cs.recover();
    await r.net.run();
    expect(r.cs.state).toBe('InCS');
    expect(r.sent.filter((s) => !s.endsWith('RELEASE'))).toEqual([]);
    expect(r.sent.length).toBeGreaterThan(0); // Maekawa's RELEASE to its arbiters
    expect(r.cs.durableState()).toMatchObject({ phase: 'idle' });
  });

  it('an Exit() waiting for l+1 InCS is withdrawn: mx is left, the Query no longer counts, InCS', async () => {
    const saved = await stateAt('Query');
    expect(saved).toMatchObject({ state: 'InCS', phase: 'query', reqCnt: 1, queryAborted: false });
    const r = rig(saved);
    await r.cs.recover();
    expect(r.cs.state).toBe('InCS');
    expect(r.cs.durableState()).toMatchObject({ phase: 'idle', queryAborted: true });
    await r.net.run();
    expect(r.sent.every((s) => s.endsWith('RELEASE'))).toBe(true); // mx left, no Acquire
    // exiting again makes a new Query
    r.sent.length = 0;
    const exit = r.cs.exit();
    await r.net.run();
    expect(r.sent.some((s) => s.endsWith('REQUEST'))).toBe(true);
    void exit.catch(() => {});
    await r.cs.close();
  });

  it('an Exit() whose Acquires were out completes: recover() awaits every Ack, leaves mx, OutCS', async () => {
    const saved = await stateAt('Acquire');
    expect(saved).toMatchObject({ state: 'InCS', phase: 'acquire', ackFrom: [] });
    const r = rig(saved);
    let done = false;
    void r.cs.recover().then(() => {
      done = true;
    });
    await r.net.run();
    expect(done).toBe(false);
    expect(r.cs.state).toBe('InCS');
    for (const j of r.p.Q) r.net.endpoint(j).send(0, { type: 'Ack' });
    await r.net.run();
    expect(done).toBe(true);
    expect(r.cs.state).toBe('OutCS');
    expect(r.sent.filter((s) => s.endsWith('RELEASE')).length).toBe(r.p.Q.length); // mx's RELEASE
    expect(r.cs.durableState()).toMatchObject({ phase: 'idle', state: 'OutCS' });
  });

  it('exit() before recover() ends the crashed Exit() first (here: completes it, and returns OutCS)', async () => {
    const r = rig(await stateAt('Acquire'));
    const exit = r.cs.exit();
    for (const j of r.p.Q) r.net.endpoint(j).send(0, { type: 'Ack' });
    await r.net.run();
    await exit;
    expect(r.cs.state).toBe('OutCS');
    expect(r.sent.filter((s) => s.endsWith('Query'))).toEqual([]);
  });

  it('rejects with CSMICError while a call is in flight', async () => {
    const r = rig();
    const exit = r.cs.exit();
    await expect(r.cs.recover()).rejects.toBeInstanceOf(CSMICError);
    void exit.catch(() => {});
    await r.cs.close();
  });
});

describe('over a mutual exclusion that is not durable, MUTIN is not durable', () => {
  const factory = mutin({ l: 1, coterie: majority(3), mx: centralMutex() });
  const ctx = () => ({
    id: 0,
    n: 3,
    endpoint: new SimNetwork({ n: 3 }).endpoint(0),
    initial: ['InCS', 'InCS', 'InCS'] as CSState[],
  });

  it('no durableState() nor recover()', () => {
    expect(isDurableCSObject(factory(ctx()))).toBe(false);
  });

  it('a recovered state is refused', async () => {
    const saved = await stateAt('Query');
    expect(() => factory({ ...ctx(), recovered: saved as never })).toThrow(/its mx is not durable/);
  });
});

describe('a recovered state that is not this process’s is refused with ConfigurationError', async () => {
  const good = await stateAt('Query');
  const cases: [string, unknown][] = [
    ['null', null],
    ['an empty object', {}],
    ['another format', { ...good, format: 'critsec/mutin@0' }],
    ['an extra field', { ...good, extra: 1 }],
    ['no mx state', { ...good, mx: undefined }],
    ['a fractional reqCnt', { ...good, reqCnt: 1.5 }],
    ["P1's state", { ...good, id: 1 }],
    ['another l', { ...good, l: 2 }],
    ['another cluster size', { ...good, n: 4 }],
    ['another quorum', { ...good, quorum: [0, 2] }],
    ['an unknown phase', { ...good, phase: 'leaving' }],
    ['an Exit() while OutCS', { ...good, state: 'OutCS' }],
    ['a Query without a reqCnt', { ...good, reqCnt: 0 }],
    ['procsInCS outside R_0', { ...good, procsInCS: [7] }],
    ['ackFrom repeating a process', { ...good, ackFrom: [1, 1] }],
    ['responseAgain outside R_0', { ...good, responseAgain: [[5, 1, false]] }],
    ['mx idle while MUTIN queries', { ...good, mx: (await stateAt('REQUEST')).mx }],
    ['a malformed mx state', { ...good, mx: { format: 'critsec/maekawa@1' } }],
    ['mx held while no Exit() runs', { ...good, phase: 'idle' }],
  ];
  for (const [what, recovered] of cases) {
    it(what, () => {
      expect(() => rig(recovered)).toThrow(ConfigurationError);
      expect(() => rig(recovered)).toThrow(/cannot resume from its recovered state/);
    });
  }

  it('the good state itself is accepted (the cases above differ from it in one field)', () => {
    expect(rig(good).cs.durableState()).toEqual(good);
  });
});

describe('the descriptor', () => {
  it('says MUTIN supports crash recovery', () => {
    expect(mutinDescriptor.crashRecovery).toBe(true);
  });
});
