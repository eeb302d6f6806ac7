/**
 * Crash recovery of Ricart–Agrawala (issue 27; `src/ricart-agrawala-durable.ts`, `durableState()`
 * and `recover()` of `src/ricart-agrawala.ts`), as `durable.test.ts` does for Maekawa: the durable
 * state round-trips after every event of seeded runs; swap-restore runs stay safe and live;
 * recovery sends the deferred replies; a foreign or malformed state is refused.
 */
import { ConfigurationError, type CSObject, mutexSpec } from '@critsec/core';
import { createCluster, runWorkload } from '@critsec/harness';
import { describe, expect, it } from 'vitest';
import {
  type RicartAgrawalaDurableState,
  type RicartAgrawalaSnapshot,
  ricartAgrawala,
  ricartAgrawalaDescriptor,
} from '../src/index.js';
import { durable, roundTripFactory, swapRestoreRun } from './durable-run.js';
import { fakeEndpoint } from './helpers.js';

const n = 5;

it('the durable state round-trips after every event: n = 5, 150 seeds with aborts', async () => {
  const found: string[] = [];
  const checks = { count: 0 };
  const factory = roundTripFactory(ricartAgrawala(), found, checks);
  for (let seed = 1; seed <= 150 && found.length === 0; seed++) {
    const cluster = createCluster({ factory, spec: mutexSpec(n), seed });
    const r = await runWorkload(cluster, { rounds: 3, abort: { probability: 0.3, within: 3 } });
    await cluster.close();
    if (!r.ok) found.push(`seed ${seed}: ${r.failure ?? 'not ok'}`);
  }
  expect(found).toEqual([]);
  expect(checks.count).toBeGreaterThan(5_000);
});

/** Nothing left once every process is done: no request, no deferred reply. */
function raLeftover(cs: CSObject): string | null {
  const s = (cs as unknown as { inspect(): RicartAgrawalaSnapshot }).inspect();
  return s.request === -1 && s.deferred.length === 0 ? null : `P${cs.id} left ${JSON.stringify(s)}`;
}

it('swap-restore: n = 5, 100 seeds, 4 swaps each — 0 violations, every process completes its rounds', async () => {
  const bad: string[] = [];
  let cut = 0;
  for (let seed = 1; seed <= 100 && bad.length === 0; seed++) {
    const r = await swapRestoreRun(ricartAgrawala(), n, seed, { swaps: 4, leftover: raLeftover });
    cut += r.cut;
    if (r.violations > 0 || r.stuck.length > 0 || r.problems.length > 0) {
      bad.push(`seed ${seed}: ${r.violations} violations, stuck ${r.stuck}, ${r.problems.join('; ')}`);
    }
  }
  expect(bad).toEqual([]);
  expect(cut).toBeGreaterThan(100);
});

/** P0 of 3 on a fake endpoint recording what it sends. */
function rig(recovered?: unknown) {
  const { endpoint, sent, deliver } = fakeEndpoint(0, [0, 1, 2], (m) =>
    m.type === 'REQUEST' ? `REQUEST(${String(m.ts)})` : `REPLY(${String(m.req)})`,
  );
  const ctx = { id: 0, n: 3, endpoint, initial: Array(3).fill('OutCS') };
  const cs = durable(
    ricartAgrawala()(recovered === undefined ? ctx : { ...ctx, recovered: recovered as never }),
  );
  const snap = () => (cs as unknown as { inspect(): RicartAgrawalaSnapshot }).inspect();
  return { cs, sent, deliver, snap };
}

/** P0's durable state after `scene`, through JSON. */
function stateAfter(scene: (r: ReturnType<typeof rig>) => void): RicartAgrawalaDurableState {
  const r = rig();
  scene(r);
  return JSON.parse(JSON.stringify(r.cs.durableState())) as RicartAgrawalaDurableState;
}

describe('recover()', () => {
  it('recovered InCS with a deferred request: the exit rule sends its REPLY, then OutCS', async () => {
    const saved = stateAfter((r) => {
      void r.cs.entry();
      r.deliver(1, { type: 'REPLY', req: 1 });
      r.deliver(2, { type: 'REPLY', req: 1 });
      r.deliver(2, { type: 'REQUEST', ts: 4 });
    });
    expect(saved).toMatchObject({ state: 'InCS', request: 1, deferred: [[2, 4]] });
    const r = rig(saved);
    expect(r.cs.state).toBe('InCS');
    await r.cs.recover();
    expect(r.sent).toEqual(['2:REPLY(4)']);
    expect(r.cs.state).toBe('OutCS');
  });

  it('recovered Trying: OutCS; deferral goes on until recover() withdraws and replies', async () => {
    const saved = stateAfter((r) => {
      void r.cs.entry();
      r.deliver(1, { type: 'REPLY', req: 1 });
    });
    expect(saved).toMatchObject({ state: 'OutCS', waiting: true, request: 1, replies: [1] });
    const r = rig(saved);
    expect(r.cs.state).toBe('OutCS');
    r.deliver(2, { type: 'REQUEST', ts: 3 }); // (1, P0) beats (3, P2): deferred, the request stands
    expect(r.sent).toEqual([]);
    await r.cs.recover();
    expect(r.sent).toEqual(['2:REPLY(3)']);
    expect(r.snap()).toMatchObject({ request: -1, requesting: false, deferred: [] });
    r.deliver(2, { type: 'REPLY', req: 1 }); // the withdrawn request's reply: stale, ignored
    expect(r.cs.state).toBe('OutCS');
  });

  it('a fresh object resolves at once', async () => {
    const r = rig();
    await r.cs.recover();
    expect(r.sent).toEqual([]);
  });
});

describe('a recovered state that is not this process’s is refused with ConfigurationError', () => {
  const good = stateAfter((r) => void r.cs.entry());
  const cases: [string, unknown][] = [
    ['null', null],
    ['a Maekawa state', { ...good, format: 'critsec/maekawa@1' }],
    ["P1's state", { ...good, id: 1 }],
    ['another cluster size', { ...good, n: 4 }],
    ['a reply from itself', { ...good, replies: [0] }],
    ['a reply counted twice', { ...good, replies: [1, 1] }],
    ['InCS while waiting', { ...good, state: 'InCS' }],
    ['an idle process with a request', { ...good, waiting: false }],
    ['a request above the highest number', { ...good, request: 7 }],
  ];
  for (const [what, recovered] of cases) {
    it(what, () => {
      expect(() => rig(recovered)).toThrow(ConfigurationError);
      expect(() => rig(recovered)).toThrow(
        /cannot resume from its recovered state: .*must not rejoin as new/,
      );
    });
  }

  it('the good state itself is accepted', () => {
    expect(rig(good).cs.durableState()).toEqual(good);
  });

  it('the descriptor says Ricart–Agrawala supports crash recovery', () => {
    expect(ricartAgrawalaDescriptor.crashRecovery).toBe(true);
  });
});
