/**
 * How a waiting call completes (Kamei & Kakugawa 2017, Algorithm 2 / 4: `wait until` every grant of
 * N_i ∪ {P_i} is here, then the state flips). The flip is atomic with the Grant that completes the
 * set: the state changes inside that message's handler, never later in a continuation
 * (ARCHITECTURE §2, the state flip) — checked by delivering one message at a time and reading the
 * state right after the handler ran and again after the continuations. A process closed at its
 * flip (from its `statechange` listener) sends nothing after it: LKCS's Release of the other type,
 * sent in the call's continuation, is skipped. And a call that does not complete rejects with
 * `AbortError` naming the algorithm, the process and the call.
 */
import { type CSObject, type CSState, isAbortError } from '@critsec/core';
import { createCluster, type SimCluster } from '@critsec/harness';
import { describe, expect, it } from 'vitest';
import { localBounds, safeInitial } from '../src/config.js';
import { complete, star } from '../src/graphs.js';
import { type LkcsCS, lkcs } from '../src/lkcs.js';
import { lkcsPlan } from '../src/lkcs-plan.js';
import { lmutex } from '../src/lmutex.js';
import { lmutin } from '../src/lmutin.js';

/**
 * Delivers the first pending event until `call` settles; returns the states seen right after each
 * handler (before continuations) and after the continuations, for process `i`.
 */
async function stepUntil(c: SimCluster, i: number, call: Promise<void>): Promise<[CSState, CSState][]> {
  let done = false;
  void call.then(() => {
    done = true;
  });
  const seen: [CSState, CSState][] = [];
  while (!done && c.net.pending().length > 0) {
    const step = c.net.deliver(0);
    const inHandler = c.objects[i]!.state;
    await step;
    seen.push([inHandler, c.objects[i]!.state]);
  }
  await call;
  return seen;
}

const star3 = star(3);

describe('the flip happens in the handler of the completing Grant', () => {
  it('LMUTIN exit(): OutCS inside the handler of the last Grant', async () => {
    const c = createCluster({
      factory: lmutin({ graph: star3, l: 0 }),
      spec: localBounds(star3, 0, (_i, d) => d + 1),
      initial: ['InCS', 'InCS', 'InCS', 'InCS'],
      mode: 'controlled',
    });
    const seen = await stepUntil(c, 0, c.objects[0]!.exit());
    expect(seen.at(-1)).toEqual(['OutCS', 'OutCS']);
    expect(seen.every(([a, b]) => a === b)).toBe(true);
  });

  it('LMUTEX entry(): InCS inside the handler of the last Grant', async () => {
    const c = createCluster({
      factory: lmutex({ graph: star3, k: 1 }),
      spec: localBounds(star3, 0, 1),
      mode: 'controlled',
    });
    const seen = await stepUntil(c, 2, c.objects[2]!.entry());
    expect(seen.at(-1)).toEqual(['InCS', 'InCS']);
    expect(seen.every(([a, b]) => a === b)).toBe(true);
  });

  it('LKCS exit() and entry(): the flip inside the handler of the last Grant of that type', async () => {
    const g = complete(5);
    const plan = lkcsPlan(g, 0, 5);
    const initial = safeInitial(plan.tightened);
    const c = createCluster({
      factory: lkcs({ graph: g, l: 0, k: 5 }),
      spec: plan.spec,
      initial,
      mode: 'controlled',
    });
    const i = initial.indexOf('InCS');
    expect(i).toBeGreaterThanOrEqual(0);
    const out = await stepUntil(c, i, c.objects[i]!.exit());
    expect(out.at(-1)).toEqual(['OutCS', 'OutCS']);
    expect(out.every(([a, b]) => a === b)).toBe(true);
    const back = await stepUntil(c, i, c.objects[i]!.entry());
    expect(back.at(-1)).toEqual(['InCS', 'InCS']);
    expect(back.every(([a, b]) => a === b)).toBe(true);
  });
});

describe('a call that completes on a closed object sends nothing more', () => {
  it('LKCS exit(): closed at the flip (from its statechange listener), it sends no Release of MUTEX', async () => {
    const g = complete(5);
    const plan = lkcsPlan(g, 0, 5);
    const c = createCluster({
      factory: lkcs({ graph: g, l: 0, k: 5 }),
      spec: plan.spec,
      initial: safeInitial(plan.tightened),
      mode: 'controlled',
    });
    const cs = c.objects[1] as LkcsCS;
    cs.on('statechange', () => void cs.close());
    const seen = await stepUntil(c, 1, cs.exit());
    expect(seen.at(-1)).toEqual(['OutCS', 'OutCS']);
    expect(cs.closed).toBe(true);
    expect(c.net.pending().filter((e) => e.kind === 'message' && e.from === 1)).toEqual([]);
  });
});

describe('a call that does not complete rejects with AbortError naming the algorithm, process and call', () => {
  function waitingLmutin(): SimCluster {
    return createCluster({
      factory: lmutin({ graph: star3, l: 0 }),
      spec: localBounds(star3, 0, (_i, d) => d + 1),
      initial: ['InCS', 'InCS', 'InCS', 'InCS'],
      mode: 'controlled',
    });
  }

  it('LMUTIN exit(): aborted, and closed while waiting', async () => {
    const c = waitingLmutin();
    const ac = new AbortController();
    const aborted = c.objects[1]!.exit({ signal: ac.signal });
    ac.abort();
    await expect(aborted).rejects.toSatisfy(isAbortError);
    await expect(aborted).rejects.toThrow('LMUTIN: P1 exit() aborted');
    const closed = c.objects[2]!.exit();
    void c.objects[2]!.close();
    await expect(closed).rejects.toSatisfy(isAbortError);
    await expect(closed).rejects.toThrow('LMUTIN: P2 was closed while waiting in exit()');
  });

  it('LKCS: closed while waiting', async () => {
    const g = complete(5);
    const initial = safeInitial(lkcsPlan(g, 0, 5).tightened);
    const c = createCluster({
      factory: lkcs({ graph: g, l: 0, k: 5 }),
      spec: lkcsPlan(g, 0, 5).spec,
      initial,
      mode: 'controlled',
    });
    const i = initial.indexOf('OutCS');
    const cs: CSObject = c.objects[i]!;
    const waiting = cs.entry();
    void cs.close();
    await expect(waiting).rejects.toSatisfy(isAbortError);
    await expect(waiting).rejects.toThrow(`LKCS: P${i} was closed while waiting`);
  });
});
