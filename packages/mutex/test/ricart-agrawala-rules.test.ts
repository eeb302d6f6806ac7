/**
 * Ricart–Agrawala (`src/ricart-agrawala.ts`) driven directly, message by message, through a fake
 * endpoint that records what the process sends: P0 of 3 processes, first request tag 1. Pins what
 * the seeded suites cannot see: the snapshot `inspect()` reports (replies, deferred requests, the
 * initial holder's tag), duplicate and self REPLYs, stale REPLYs and their reach marks, a REQUEST
 * deferred twice from one process (an honest FIFO network never sends an older one second), the
 * abort and close messages, an abort that fires while the object closes, and the initial-holder
 * configuration error. Together these tests kill the mutation-testing survivors of
 * `ricart-agrawala.ts` listed in the README (issue 14).
 */
import {
  ConfigurationError,
  type CSObject,
  type CSState,
  type Endpoint,
  isAbortError,
  ProtocolError,
} from '@critsec/core';
import { collectReached, type ReachCollector } from '@critsec/core/kit';
import { CLOCK_MAX } from '@critsec/transport';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RicartAgrawalaMessage, type RicartAgrawalaSnapshot, ricartAgrawala } from '../src/index.js';
import { fakeEndpoint } from './helpers.js';

const n = 3;

interface Rig {
  readonly cs: CSObject;
  /** Messages sent, as `to:REQUEST(ts)` / `to:REPLY(req)`. */
  readonly sent: string[];
  readonly errors: Error[];
  /** Hands a fresh copy of `msg` from `from` to the process. */
  deliver(from: number, msg: RicartAgrawalaMessage): void;
  inspect(): RicartAgrawalaSnapshot;
}

/** Process `id` (default P0) of 3 on a fake endpoint. */
function rig(opts: { id?: number; initial?: CSState[]; onUnsubscribe?: () => void } = {}): Rig {
  const id = opts.id ?? 0;
  const errors: Error[] = [];
  const { endpoint, sent, deliver } = fakeEndpoint(
    id,
    [0, 1, 2],
    (msg) => {
      const m = msg as RicartAgrawalaMessage;
      return `${m.type}(${m.type === 'REQUEST' ? m.ts : m.req})`;
    },
    opts.onUnsubscribe,
  );
  const cs = ricartAgrawala()({ id, n, endpoint, initial: opts.initial ?? Array(n).fill('OutCS') });
  cs.on('error', (err) => errors.push(err));
  return {
    cs,
    sent,
    errors,
    deliver: (from, msg) => deliver(from, { ...msg }),
    inspect: () => (cs as unknown as { inspect(): RicartAgrawalaSnapshot }).inspect(),
  };
}

/** Empties the record of messages sent so far. */
function clear(r: Rig): void {
  r.sent.length = 0;
}

/** P0 asks (tag 1, or `signal`'s entry); the REQUESTs are checked and cleared. */
function asking(
  opts: Parameters<typeof rig>[0] & { signal?: AbortSignal } = {},
): Rig & { readonly done: Promise<void> } {
  const r = rig(opts);
  const done = r.cs.entry({ signal: opts.signal });
  done.catch(() => {});
  expect(r.sent).toEqual(['1:REQUEST(1)', '2:REQUEST(1)']);
  clear(r);
  return { ...r, done };
}

const reply = (req: number): RicartAgrawalaMessage => ({ type: 'REPLY', req });
const request = (ts: number): RicartAgrawalaMessage => ({ type: 'REQUEST', ts });

describe('RicartAgrawalaMutex, driven directly', () => {
  let reached: ReachCollector;
  beforeEach(() => {
    reached = collectReached();
  });
  afterEach(() => reached.stop());

  it('inspect(): the initial holder alone starts with request tag 0, nothing replied or deferred', () => {
    const initial: CSState[] = ['OutCS', 'InCS', 'OutCS'];
    const holder = rig({ id: 1, initial });
    expect(holder.cs.state).toBe('InCS');
    expect(holder.inspect()).toEqual({
      highest: 0,
      request: 0,
      requesting: false,
      replies: [],
      deferred: [],
    });
    expect(rig({ id: 0, initial }).inspect()).toEqual({
      highest: 0,
      request: -1,
      requesting: false,
      replies: [],
      deferred: [],
    });
    expect(rig().inspect()).toEqual({
      highest: 0,
      request: -1,
      requesting: false,
      replies: [],
      deferred: [],
    });
  });

  it('inspect() lists the replies and the deferred requests of a waiting process; exit answers the deferred one', async () => {
    const r = asking();
    r.deliver(2, reply(1));
    r.deliver(1, request(5)); // (1, P0) beats (5, P1): deferred
    expect(r.sent).toEqual([]);
    expect(r.inspect()).toEqual({
      highest: 5,
      request: 1,
      requesting: true,
      replies: [2],
      deferred: [[1, 5]],
    });
    r.deliver(1, reply(1));
    await r.done;
    expect(r.cs.state).toBe('InCS');
    expect(r.inspect()).toMatchObject({ request: 1, requesting: false, replies: [1, 2], deferred: [[1, 5]] });
    await r.cs.exit();
    expect(r.sent).toEqual(['1:REPLY(5)']);
    expect(r.inspect()).toMatchObject({ request: -1, requesting: false, deferred: [] });
  });

  it('a REQUEST deferred twice from one process keeps the newer timestamp: one REPLY, with it', async () => {
    const r = asking();
    r.deliver(1, request(7));
    r.deliver(1, request(5)); // older, second (a reordering network or a forger): 7 is kept
    expect(r.inspect().deferred).toEqual([[1, 7]]);
    r.deliver(1, request(7)); // the same again
    expect(r.inspect().deferred).toEqual([[1, 7]]);
    r.deliver(1, reply(1));
    r.deliver(2, reply(1));
    await r.done;
    await r.cs.exit();
    expect(r.sent).toEqual(['1:REPLY(7)']);
  });

  it('a duplicate REPLY counts once (reach ricart-agrawala:duplicate-reply)', async () => {
    const r = asking();
    r.deliver(1, reply(1));
    r.deliver(1, reply(1));
    expect(reached.counts.get('ricart-agrawala:duplicate-reply')).toBe(1);
    expect(r.cs.state).toBe('OutCS');
    expect(r.inspect()).toMatchObject({ requesting: true, replies: [1] });
    r.deliver(2, reply(1));
    await r.done;
    expect(r.cs.state).toBe('InCS');
    expect(r.errors).toEqual([]);
  });

  it('a REQUEST or REPLY from the process itself is reported and dropped, before the clock', async () => {
    const r = asking();
    r.deliver(0, reply(1));
    r.deliver(0, request(CLOCK_MAX));
    expect(r.errors.map((e) => [e instanceof ProtocolError && e.from, e.message])).toEqual([
      [0, 'Ricart–Agrawala: P0 got REPLY from itself'],
      [0, 'Ricart–Agrawala: P0 got REQUEST from itself'],
    ]);
    expect(reached.counts.get('ricart-agrawala:duplicate-reply')).toBeUndefined();
    expect(r.inspect()).toMatchObject({ highest: 1, requesting: true, replies: [], deferred: [] });
    expect(r.sent).toEqual([]);
    r.deliver(1, reply(1));
    expect(r.cs.state).toBe('OutCS');
    expect(r.inspect()).toMatchObject({ requesting: true, replies: [1] });
    r.deliver(2, reply(1));
    await r.done;
    expect(r.cs.state).toBe('InCS');
  });

  it('inspect() shows the replies of the current request only: none after exit or abort', async () => {
    const r = asking();
    r.deliver(1, reply(1));
    r.deliver(2, reply(1));
    await r.done;
    expect(r.inspect()).toMatchObject({ request: 1, requesting: false, replies: [1, 2] });
    await r.cs.exit();
    expect(r.inspect()).toMatchObject({ request: -1, requesting: false, replies: [] });
    const ac = new AbortController();
    const next = r.cs.entry({ signal: ac.signal });
    next.catch(() => {});
    r.deliver(1, reply(2));
    expect(r.inspect()).toMatchObject({ request: 2, requesting: true, replies: [1] });
    ac.abort();
    await expect(next).rejects.toThrow();
    expect(r.inspect()).toMatchObject({ request: -1, requesting: false, replies: [] });
  });

  it('a REPLY while not requesting, or for another request, is ignored (reach ricart-agrawala:stale-ignored)', async () => {
    const r = rig();
    r.deliver(1, reply(1)); // not requesting
    expect(reached.counts.get('ricart-agrawala:stale-ignored')).toBe(1);
    void r.cs.entry().catch(() => {});
    r.deliver(1, reply(0)); // another request's tag
    r.deliver(2, reply(2));
    expect(reached.counts.get('ricart-agrawala:stale-ignored')).toBe(3);
    expect(reached.counts.get('ricart-agrawala:duplicate-reply')).toBeUndefined();
    expect(r.inspect()).toMatchObject({ request: 1, requesting: true, replies: [] });
  });

  it('an aborted entry sends the deferred REPLYs and rejects with "Ricart–Agrawala: P0 entry() aborted"', async () => {
    const ac = new AbortController();
    const r = asking({ signal: ac.signal });
    r.deliver(1, reply(1));
    r.deliver(2, request(4)); // deferred
    expect(r.sent).toEqual([]);
    ac.abort();
    const err = await r.done.catch((e: unknown) => e);
    expect(isAbortError(err)).toBe(true);
    expect((err as Error).message).toBe('Ricart–Agrawala: P0 entry() aborted');
    expect(r.sent).toEqual(['2:REPLY(4)']);
    expect(r.cs.state).toBe('OutCS');
    expect(r.inspect()).toMatchObject({ highest: 4, request: -1, requesting: false, deferred: [] });
  });

  it('closing a waiting entry rejects it with "Ricart–Agrawala: P0 was closed while waiting in entry()" and sends nothing', async () => {
    const r = asking();
    r.deliver(2, request(4)); // deferred
    await r.cs.close();
    const err = await r.done.catch((e: unknown) => e);
    expect(isAbortError(err)).toBe(true);
    expect((err as Error).message).toBe('Ricart–Agrawala: P0 was closed while waiting in entry()');
    expect(r.sent).toEqual([]);
  });

  it('an abort that fires while the object closes (its endpoint unsubscribed) sends no deferred REPLY', async () => {
    const ac = new AbortController();
    const r = asking({ signal: ac.signal, onUnsubscribe: () => ac.abort() });
    r.deliver(2, request(4)); // deferred
    await r.cs.close();
    const err = await r.done.catch((e: unknown) => e);
    expect(isAbortError(err)).toBe(true);
    expect((err as Error).message).toBe('Ricart–Agrawala: P0 entry() aborted'); // the abort came first
    expect(r.sent).toEqual([]);
    expect(r.inspect()).toMatchObject({ request: -1, requesting: false });
  });

  it('a malformed message is dropped and reported under the protocol name "ricart-agrawala"', () => {
    const r = rig();
    r.deliver(1, { type: 'REPLY', req: -3 } as never);
    r.deliver(1, { type: 'GRANT', req: 1 } as never);
    expect(r.errors).toHaveLength(2);
    for (const err of r.errors) {
      expect(err).toBeInstanceOf(ProtocolError);
      expect(err.message.startsWith('ricart-agrawala: dropped invalid message from P1')).toBe(true);
    }
    expect(r.sent).toEqual([]);
    expect(r.inspect()).toMatchObject({ highest: 0, request: -1, replies: [], deferred: [] });
  });

  it('more than one process InCS initially: the error lists the holders', () => {
    const endpoint = {} as Endpoint; // never reached: the factory throws first
    const twice: CSState[] = ['InCS', 'InCS', 'OutCS'];
    const thrice: CSState[] = ['InCS', 'InCS', 'InCS'];
    const make = (initial: CSState[]) => () => ricartAgrawala()({ id: 2, n, endpoint, initial });
    expect(make(twice)).toThrow(ConfigurationError);
    expect(make(twice)).toThrow(
      'ricartAgrawala: mutual exclusion allows at most one process InCS initially, got P0, P1',
    );
    expect(make(thrice)).toThrow(/, got P0, P1, P2$/);
  });
});
