/*
 * compose() driven step by step over inner objects the test opens, fails and aborts by hand:
 * the phases inspect() reports, the abort signal reaching a.exit / b.entry, close() during a
 * call, checkInner's checks and texts, the channel-name guard, and the clean-up of a half-made
 * pair. Written against surviving mutants of `npm run test:mutation` (README, "Tests").
 */
import {
  AbortError,
  ConfigurationError,
  type CSFactory,
  CSObjectBase,
  type CSState,
  type ProcessContext,
} from '@critsec/core';
import { StubCS } from '@critsec/testing';
import { SimNetwork } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { compose } from '../src/index.js';

/**
 * An inner object whose call finishes when the test opens or fails it, and rejects with an
 * AbortError when its signal aborts. Its close() does not reject the call in flight, so the
 * composite's own "closed during …" check is what answers a close.
 */
class Gate extends CSObjectBase {
  readonly signals: (AbortSignal | undefined)[] = [];
  #open: (() => void) | undefined;
  #fail: ((err: Error) => void) | undefined;
  constructor(
    id: number,
    state: CSState,
    readonly label: string,
    readonly log: string[],
  ) {
    super(id, state);
  }
  inspect(): unknown {
    return this.label;
  }
  open(): void {
    this.#open!();
  }
  fail(err: Error): void {
    this.#fail!(err);
  }
  #wait(op: string, signal: AbortSignal | undefined): Promise<void> {
    this.log.push(`${this.label}.${op}`);
    this.signals.push(signal);
    return new Promise((resolve, reject) => {
      this.#open = resolve;
      this.#fail = reject;
      signal?.addEventListener('abort', () => reject(new AbortError(`${this.label}.${op} aborted`)), {
        once: true,
      });
    });
  }
  protected doEntry(_req: void, signal: AbortSignal | undefined): Promise<void> {
    return this.#wait('entry', signal);
  }
  protected doExit(signal: AbortSignal | undefined): Promise<void> {
    return this.#wait('exit', signal);
  }
  protected doClose(): void {
    this.log.push(`${this.label}.close`);
  }
}

const tick = () => new Promise((r) => setImmediate(r));

function pair(state: CSState) {
  const log: string[] = [];
  const a = new Gate(0, state, 'a', log);
  const b = new Gate(0, state, 'b', log);
  const g = compose(a, b);
  const view = () => g.inspect!() as { state: CSState; pending: string | null; phase: string };
  return { a, b, g, log, phase: () => view().phase, view };
}

describe('inspect() reports the phase of Algorithm 3 at every step', () => {
  it("exit: 'a.Exit', then 'b.Exit' once flipped, then 'idle'; entry: 'b.Entry', 'a.Entry', 'idle'", async () => {
    const { a, b, g, phase, view } = pair('InCS');
    expect(phase()).toBe('idle');
    const exit = g.exit();
    expect(view()).toEqual({ state: 'InCS', pending: 'exit', phase: 'a.Exit', a: 'a', b: 'b' });
    a.open();
    await tick();
    expect(view()).toEqual({ state: 'OutCS', pending: 'exit', phase: 'b.Exit', a: 'a', b: 'b' });
    b.open();
    await exit;
    expect(view()).toEqual({ state: 'OutCS', pending: null, phase: 'idle', a: 'a', b: 'b' });
    const entry = g.entry();
    expect(phase()).toBe('b.Entry');
    b.open();
    await tick();
    expect([g.state, phase()]).toEqual(['InCS', 'a.Entry']);
    a.open();
    await entry;
    expect([g.state, g.pending, phase()]).toEqual(['InCS', null, 'idle']);
  });
});

describe('an aborted or failed first call', () => {
  it("exit passes its signal to a.exit; the abort rejects, the state stays InCS, the phase is 'idle'", async () => {
    const { a, g, log, phase } = pair('InCS');
    const ac = new AbortController();
    const exit = g.exit({ signal: ac.signal });
    expect(a.signals).toEqual([ac.signal]);
    ac.abort();
    await expect(exit).rejects.toThrow(new AbortError('a.exit aborted'));
    expect([g.state, g.pending, phase()]).toEqual(['InCS', null, 'idle']);
    expect(log).toEqual(['a.exit']);
  });

  it("entry passes its signal to b.entry; the abort rejects, the state stays OutCS, the phase is 'idle'", async () => {
    const { b, g, log, phase } = pair('OutCS');
    const ac = new AbortController();
    const entry = g.entry({ signal: ac.signal });
    expect(b.signals).toEqual([ac.signal]);
    ac.abort();
    await expect(entry).rejects.toThrow(new AbortError('b.entry aborted'));
    expect([g.state, g.pending, phase()]).toEqual(['OutCS', null, 'idle']);
    expect(log).toEqual(['b.entry']);
  });

  it("a first call that fails rejects with its error and leaves the phase 'idle'", async () => {
    const { a, g, phase } = pair('InCS');
    const exit = g.exit();
    const boom = new Error('a broke');
    a.fail(boom);
    await expect(exit).rejects.toBe(boom);
    expect([g.state, phase()]).toEqual(['InCS', 'idle']);
    const again = g.exit(); // usable again
    expect(phase()).toBe('a.Exit');
    a.open();
    await tick();
    expect(phase()).toBe('b.Exit');
    void again;
  });
});

describe('close() during a call', () => {
  it('exit(): the first call completes after close: the call rejects naming exit(), before the flip (state unchanged, phase idle, no statechange)', async () => {
    const { a, g, log, phase } = pair('InCS');
    const flips: CSState[] = [];
    g.on('statechange', (s) => flips.push(s));
    const exit = g.exit();
    await g.close();
    expect(log).toEqual(['a.exit', 'a.close', 'b.close']);
    a.open();
    const err = await exit.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AbortError);
    expect((err as Error).message).toBe('composite P0 was closed during exit()');
    expect(g.state).toBe('InCS');
    expect(flips).toEqual([]);
    expect(phase()).toBe('idle');
    expect(log).toEqual(['a.exit', 'a.close', 'b.close']); // b.exit never called
  });

  it('entry(): likewise, naming entry()', async () => {
    const { b, g, log, phase } = pair('OutCS');
    const entry = g.entry();
    await g.close();
    b.open();
    const err = await entry.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AbortError);
    expect((err as Error).message).toBe('composite P0 was closed during entry()');
    expect(g.state).toBe('OutCS');
    expect(phase()).toBe('idle');
    expect(log).toEqual(['b.entry', 'a.close', 'b.close']); // a.entry never called
  });

  it('a close during the second call rejects with its error after the flip, and the phase returns to idle', async () => {
    const { a, b, g, phase } = pair('InCS');
    const exit = g.exit();
    a.open();
    await tick();
    expect([g.state, phase()]).toEqual(['OutCS', 'b.Exit']);
    await g.close();
    b.fail(new AbortError('b.exit closed'));
    await expect(exit).rejects.toThrow('b.exit closed');
    expect([g.state, phase()]).toEqual(['OutCS', 'idle']);
  });
});

describe('compose() of two objects: checkInner', () => {
  it('refuses an inner object with a call in flight, naming it (a or b) and the call', () => {
    const log: string[] = [];
    const busyB = new Gate(0, 'InCS', 'b', log);
    void busyB.exit();
    expect(() => compose(new Gate(0, 'InCS', 'a', log), busyB)).toThrow(
      new ConfigurationError('compose: inner object b of P0 has a exit() in flight'),
    );
    const busyA = new Gate(2, 'OutCS', 'a', log);
    void busyA.entry();
    expect(() => compose(busyA, new Gate(2, 'OutCS', 'b', log))).toThrow(
      new ConfigurationError('compose: inner object a of P2 has a entry() in flight'),
    );
  });

  it('names a as the inner object that takes a request', () => {
    expect(() =>
      compose(new StubCS(1, 'OutCS', { takesRequest: true }) as never, new StubCS(1, 'OutCS')),
    ).toThrow(
      new ConfigurationError(
        'compose: inner object a of P1 takes a request; compose works on plain (Req = void) CS objects',
      ),
    );
  });
});

describe('compose() of two factories', () => {
  const ctx = (id: number, initial: CSState[]): ProcessContext => ({
    id,
    n: initial.length,
    endpoint: new SimNetwork({ n: initial.length }).endpoint(id),
    initial,
  });
  const lemma5 = '(Algorithm 3 needs state_i = a.state_i = b.state_i initially, Lemma 5)';

  it('checks the id and the state of each inner object against the context, naming a or b', () => {
    const right: CSFactory = (c) => new StubCS(c.id, c.initial[c.id]);
    const otherId: CSFactory = (c) => new StubCS(c.id + 1, c.initial[c.id]);
    const inCS: CSFactory = (c) => new StubCS(c.id, 'InCS');
    const initial: CSState[] = ['OutCS', 'OutCS', 'OutCS'];
    expect(() => compose(otherId, right)(ctx(0, initial))).toThrow(
      new ConfigurationError(`compose: inner object a is P1 OutCS, expected P0 OutCS ${lemma5}`),
    );
    expect(() => compose(right, otherId)(ctx(1, initial))).toThrow(
      new ConfigurationError(`compose: inner object b is P2 OutCS, expected P1 OutCS ${lemma5}`),
    );
    expect(() => compose(inCS, right)(ctx(0, initial))).toThrow(
      new ConfigurationError(`compose: inner object a is P0 InCS, expected P0 OutCS ${lemma5}`),
    );
    expect(() => compose(right, inCS)(ctx(0, initial))).toThrow(
      new ConfigurationError(`compose: inner object b is P0 InCS, expected P0 OutCS ${lemma5}`),
    );
    expect(compose(right, right)(ctx(2, initial)).state).toBe('OutCS');
  });

  it('closes the first object when the second factory throws, and rethrows its error', () => {
    const made: StubCS[] = [];
    const a: CSFactory = (c) => {
      const o = new StubCS(c.id, c.initial[c.id]);
      made.push(o);
      return o;
    };
    const boom = new Error('no b today');
    const b: CSFactory = () => {
      throw boom;
    };
    let thrown: unknown = null;
    try {
      compose(a, b)(ctx(0, ['InCS', 'OutCS']));
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBe(boom);
    expect(made.map((o) => o.closed)).toEqual([true]);
  });

  it('closes both objects when the pair is refused', () => {
    const made: StubCS[] = [];
    const f =
      (state?: CSState): CSFactory =>
      (c) => {
        const o = new StubCS(c.id, state ?? c.initial[c.id]);
        made.push(o);
        return o;
      };
    expect(() => compose(f(), f('InCS'))(ctx(1, ['InCS', 'OutCS']))).toThrow(/inner object b is P1 InCS/);
    expect(made.map((o) => o.closed)).toEqual([true, true]);
  });
});

describe('compose() channel names: two different non-empty strings', () => {
  const f: CSFactory = (c) => new StubCS(c.id, c.initial[c.id]);
  const refusal = (channels: unknown) =>
    new ConfigurationError(
      `compose: channels must be two different non-empty names, got ${JSON.stringify(channels)}`,
    );
  const bad: [string, unknown][] = [
    ['a number first', [1, 'b']],
    ['a number second', ['a', 2]],
    ['a missing second', ['a']],
    ['the same twice', ['x', 'x']],
    ['an empty first', ['', 'b']],
    ['an empty second', ['a', '']],
  ];
  for (const [what, channels] of bad) {
    it(`refuses ${what}`, () => {
      expect(() => compose(f, f, { channels } as never)).toThrow(refusal(channels));
    });
  }
  it('accepts two different names', () => {
    const g = compose(f, f, { channels: ['p', 'q'] })({
      id: 0,
      n: 1,
      endpoint: new SimNetwork({ n: 1 }).endpoint(0),
      initial: ['OutCS'],
    });
    expect(g.state).toBe('OutCS');
  });
});
