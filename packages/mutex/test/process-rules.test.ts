/**
 * The requester's rules R1–R6 (`src/maekawa-process.ts`) driven directly, message by message,
 * through a fake endpoint that records what the process sends: P0 of the 2×2 grid, Q_0 = {0, 1, 2}
 * (P3 is not in it), first request tag 1. Includes scenes an honest FIFO network never produces: a
 * duplicate FAILED or INQUIRE, a FAILED from an arbiter whose lock is held, a FAILED or INQUIRE
 * from outside Q_0, an abort that fires while the object closes. Each test names the rule it pins;
 * together they kill the process's mutation-testing survivors listed in the README (issue 14).
 */
import { type CSState, isAbortError, ProtocolError } from '@critsec/core';
import { collectReached, type ReachCollector } from '@critsec/core/kit';
import { grid } from '@critsec/coteries';
import { CLOCK_MAX } from '@critsec/transport';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MaekawaMutex } from '../src/maekawa-process.js';
import type { MaekawaMessage, MaekawaSnapshot } from '../src/maekawa-protocol.js';
import { fakeEndpoint } from './helpers.js';

const n = 4;
const coterie = grid(n);

interface Rig {
  readonly cs: MaekawaMutex;
  /** Messages sent, as `to:TYPE(req)`. */
  readonly sent: string[];
  readonly errors: Error[];
  /** Hands `TYPE(req)` from `from` to the process (stamped `ts`, by default `req`). */
  deliver(from: number, type: MaekawaMessage['type'], req: number, ts?: number): void;
  /** The requester's variables. */
  requester(): MaekawaSnapshot['requester'];
}

/** Process `id` (default P0) of the 2×2 grid on a fake endpoint. */
function rig(opts: { id?: number; initial?: CSState[]; onUnsubscribe?: () => void } = {}): Rig {
  const id = opts.id ?? 0;
  const errors: Error[] = [];
  const { endpoint, sent, deliver } = fakeEndpoint(
    id,
    [0, 1, 2, 3],
    (msg) => `${msg.type}(${String(msg.req)})`,
    opts.onUnsubscribe,
  );
  const cs = new MaekawaMutex(
    { id, n, endpoint, initial: opts.initial ?? Array(n).fill('OutCS') },
    coterie,
    'sanders',
  );
  cs.on('error', (err) => errors.push(err));
  return {
    cs,
    sent,
    errors,
    deliver: (from, type, req, ts = req) => deliver(from, { type, req, ts }),
    requester: () => cs.inspect().requester,
  };
}

/** Empties the record of messages sent so far. */
function clear(r: Rig): void {
  r.sent.length = 0;
}

/** P0 asks (tag 1); the REQUESTs to Q_0 are checked and cleared. */
function asking(opts: Parameters<typeof rig>[0] = {}): Rig & { readonly done: Promise<void> } {
  const r = rig(opts);
  const done = r.cs.entry();
  done.catch(() => {});
  expect(r.sent).toEqual(['0:REQUEST(1)', '1:REQUEST(1)', '2:REQUEST(1)']);
  clear(r);
  return { ...r, done };
}

describe('MaekawaMutex requester rules, driven directly', () => {
  let reached: ReachCollector;
  beforeEach(() => {
    reached = collectReached();
  });
  afterEach(() => reached.stop());

  it('the initial holder alone starts with every lock of its quorum, tag 0', () => {
    const initial: CSState[] = ['OutCS', 'InCS', 'OutCS', 'OutCS'];
    expect(rig({ id: 1, initial }).requester()).toMatchObject({
      request: 0,
      waiting: false,
      locks: [0, 1, 3],
    });
    expect(rig({ id: 0, initial }).requester()).toMatchObject({ request: -1, locks: [] });
    expect(rig({ id: 0 }).requester()).toMatchObject({ request: -1, locks: [] });
  });

  it('R6: an aborted entry sends RELEASE to Q_0 and rejects with "Maekawa: P0 entry() aborted"', async () => {
    const ac = new AbortController();
    const r = rig();
    const p = r.cs.entry({ signal: ac.signal });
    clear(r);
    r.deliver(0, 'LOCKED', 1);
    ac.abort();
    const err = await p.catch((e: unknown) => e);
    expect(isAbortError(err)).toBe(true);
    expect((err as Error).message).toBe('Maekawa: P0 entry() aborted');
    expect(r.sent).toEqual(['0:RELEASE(1)', '1:RELEASE(1)', '2:RELEASE(1)']);
    expect(r.requester()).toEqual({
      request: -1,
      waiting: false,
      locks: [],
      failed: [],
      yielded: [],
      inquiredBy: [],
    });
  });

  it('closing a waiting entry rejects it with "Maekawa: P0 was closed while waiting in entry()" and sends nothing', async () => {
    const r = asking();
    r.deliver(0, 'LOCKED', 1);
    await r.cs.close();
    const err = await r.done.catch((e: unknown) => e);
    expect(isAbortError(err)).toBe(true);
    expect((err as Error).message).toBe('Maekawa: P0 was closed while waiting in entry()');
    expect(r.sent).toEqual([]);
  });

  it('R6: an abort that fires while the object closes (its endpoint unsubscribed) sends no RELEASE', async () => {
    const ac = new AbortController();
    const r = rig({ onUnsubscribe: () => ac.abort() });
    const p = r.cs.entry({ signal: ac.signal });
    clear(r);
    await r.cs.close();
    const err = await p.catch((e: unknown) => e);
    expect(isAbortError(err)).toBe(true);
    expect(r.sent).toEqual([]);
    expect(r.requester()).toMatchObject({ request: -1, waiting: false });
  });

  it('REQUEST, RELINQUISH and RELEASE from outside R_0 are reported with the sender and dropped (P3: 0 ∉ Q_3)', () => {
    expect(coterie.reportersOf(0)).not.toContain(3);
    const r = rig();
    r.deliver(3, 'REQUEST', 5);
    r.deliver(3, 'RELINQUISH', 5);
    r.deliver(3, 'RELEASE', 5);
    expect(r.errors.map((e) => [e instanceof ProtocolError && e.from, e.message])).toEqual(
      ['REQUEST', 'RELINQUISH', 'RELEASE'].map((type) => [
        3,
        `Maekawa: P0 got ${type} from P3, whose quorum Q_3 does not contain P0`,
      ]),
    );
    expect(r.sent).toEqual([]);
    expect(r.cs.inspect().arbiter).toEqual({
      grantedTo: -1,
      grantedReq: 0,
      inquired: false,
      queue: [],
      aside: [],
    });
    expect(r.cs.inspect().sn).toBe(0);
  });

  it('a dropped message leaves the clock alone: forged ts = CLOCK_MAX from outside Q_0 and R_0', async () => {
    const r = rig();
    for (const type of ['REQUEST', 'RELEASE', 'RELINQUISH', 'LOCKED', 'FAILED', 'INQUIRE'] as const) {
      r.deliver(3, type, 1, CLOCK_MAX);
    }
    expect(r.errors).toHaveLength(6);
    expect(r.cs.inspect().sn).toBe(0);
    r.deliver(1, 'RELEASE', 7, 41); // from a peer (P1 ∈ R_0), stale: ignored, but its clock counts
    expect(r.errors).toHaveLength(6);
    expect(r.cs.inspect().sn).toBe(41);
    const done = r.cs.entry();
    done.catch(() => {});
    expect(r.sent).toEqual(['0:REQUEST(42)', '1:REQUEST(42)', '2:REQUEST(42)']);
  });

  it('a LOCKED or FAILED from outside Q_0 is reported with its sender and the quorum, and dropped', () => {
    const r = asking();
    r.deliver(0, 'LOCKED', 1);
    r.deliver(0, 'INQUIRE', 1); // deferred
    expect(r.requester().inquiredBy).toEqual([0]);
    r.deliver(3, 'LOCKED', 1);
    r.deliver(3, 'FAILED', 1); // would otherwise revisit the deferred INQUIRE
    expect(r.errors).toHaveLength(2);
    expect(r.errors[0]).toBeInstanceOf(ProtocolError);
    expect(r.errors[0]!.message).toBe(
      'Maekawa: P0 got LOCKED from P3, which is not in its quorum Q_0 = {0, 1, 2}',
    );
    expect((r.errors[0] as ProtocolError).from).toBe(3);
    expect(r.errors[1]!.message).toBe(
      'Maekawa: P0 got FAILED from P3, which is not in its quorum Q_0 = {0, 1, 2}',
    );
    expect((r.errors[1] as ProtocolError).from).toBe(3);
    expect(r.sent).toEqual([]);
    expect(r.requester()).toEqual({
      request: 1,
      waiting: true,
      locks: [0],
      failed: [],
      yielded: [],
      inquiredBy: [0],
    });
    expect(reached.counts.get('maekawa:relinquish-after-failed')).toBeUndefined();
  });

  it('stale messages and messages after entry: stale-ignored, except INQUIRE of the current request after entry', async () => {
    const r = asking();
    for (const a of [0, 1, 2]) r.deliver(a, 'LOCKED', 1);
    await r.done;
    expect(r.cs.state).toBe('InCS');
    r.deliver(0, 'LOCKED', 1); // the current tag, after entry
    r.deliver(1, 'FAILED', 1);
    expect(reached.counts.get('maekawa:stale-ignored')).toBe(2);
    expect(reached.counts.get('maekawa:inquire-after-entry')).toBeUndefined();
    r.deliver(2, 'INQUIRE', 1);
    expect(reached.counts.get('maekawa:inquire-after-entry')).toBe(1);
    expect(r.sent).toEqual([]);
    await r.cs.exit();
    expect(r.sent).toEqual(['0:RELEASE(1)', '1:RELEASE(1)', '2:RELEASE(1)']);
    clear(r);
    void r.cs.entry().catch(() => {});
    expect(r.requester().request).toBe(2);
    r.deliver(0, 'INQUIRE', 1); // the previous request's, while waiting
    r.deliver(1, 'LOCKED', 1);
    expect(reached.counts.get('maekawa:stale-ignored')).toBe(4);
    expect(reached.counts.get('maekawa:inquire-after-entry')).toBe(1);
  });

  it('R7: PROBE of the current request is ignored, waiting or InCS; PROBE of any other tag is answered with RELEASE (issue 27 §3)', async () => {
    const r = asking();
    r.deliver(1, 'PROBE', 1); // waiting under tag 1
    for (const a of [0, 1, 2]) r.deliver(a, 'LOCKED', 1);
    await r.done;
    r.deliver(2, 'PROBE', 1); // InCS under tag 1: its grant must stay
    expect(r.sent).toEqual([]);
    expect(reached.counts.get('maekawa:probe-current')).toBe(2);
    r.deliver(2, 'PROBE', 7); // a tag above every tag P0 issued
    r.deliver(1, 'PROBE', 0); // a tag P0 never issued, below its latest
    expect(r.sent).toEqual(['2:RELEASE(7)', '1:RELEASE(0)']);
    await r.cs.exit();
    clear(r);
    r.deliver(0, 'PROBE', 1); // the request just released, no request now
    expect(r.sent).toEqual(['0:RELEASE(1)']);
    expect(reached.counts.get('maekawa:unused-tag-released')).toBe(3);
    expect(r.cs.state).toBe('OutCS');
  });

  it('R7: LOCKED or INQUIRE for a tag above the latest one is answered with RELEASE; FAILED is not; at or below the latest, stale as before', () => {
    const r = asking();
    r.deliver(1, 'LOCKED', 2);
    r.deliver(2, 'INQUIRE', 9);
    r.deliver(0, 'FAILED', 9); // no lock involved: nothing to give back
    expect(r.sent).toEqual(['1:RELEASE(2)', '2:RELEASE(9)']);
    expect(r.requester()).toMatchObject({ request: 1, waiting: true, locks: [], failed: [] });
    clear(r);
    r.deliver(1, 'LOCKED', 0); // at or below the latest tag: may be a stale LOCKED of an earlier request
    expect(r.sent).toEqual([]);
    expect(reached.counts.get('maekawa:stale-ignored')).toBe(2);
  });

  it('R2: LOCKED from an arbiter marked failed clears the mark; a later INQUIRE is deferred', () => {
    const r = asking();
    r.deliver(0, 'LOCKED', 1);
    r.deliver(1, 'FAILED', 1);
    expect(r.requester().failed).toEqual([1]);
    r.deliver(1, 'LOCKED', 1);
    expect(r.requester()).toMatchObject({ locks: [0, 1], failed: [], yielded: [] });
    r.deliver(0, 'INQUIRE', 1); // no mark left: deferred, not relinquished
    expect(r.sent).toEqual([]);
    expect(r.requester().inquiredBy).toEqual([0]);
    expect(reached.counts.get('maekawa:inquire-deferred')).toBe(1);
  });

  it('R4 then R2: INQUIRE while marked relinquishes at once (reach maekawa:relinquish); LOCKED from it again clears the yielded mark', () => {
    const r = asking();
    r.deliver(0, 'LOCKED', 1);
    r.deliver(1, 'FAILED', 1);
    r.deliver(0, 'INQUIRE', 1);
    expect(r.sent).toEqual(['0:RELINQUISH(1)']);
    expect(r.requester()).toMatchObject({ locks: [], failed: [1], yielded: [0], inquiredBy: [] });
    expect(reached.counts.get('maekawa:relinquish')).toBe(1);
    r.deliver(0, 'LOCKED', 1);
    expect(r.requester()).toMatchObject({ locks: [0], failed: [1], yielded: [] });
  });

  it('R2: the last LOCKED flips the state in the handler and drops the deferred inquiries', async () => {
    const r = asking();
    r.deliver(0, 'LOCKED', 1);
    r.deliver(0, 'INQUIRE', 1);
    r.deliver(1, 'LOCKED', 1);
    expect(r.requester().inquiredBy).toEqual([0]);
    r.deliver(2, 'LOCKED', 1);
    expect(r.cs.state).toBe('InCS'); // before the entry's promise settles
    expect(r.requester()).toEqual({
      request: 1,
      waiting: false,
      locks: [0, 1, 2],
      failed: [],
      yielded: [],
      inquiredBy: [],
    });
    await r.done;
    expect(r.sent).toEqual([]);
  });

  it('R3: a stale FAILED does not revisit a deferred INQUIRE', () => {
    const r = asking();
    r.deliver(0, 'LOCKED', 1);
    r.deliver(0, 'INQUIRE', 1);
    r.deliver(1, 'FAILED', 0); // another request's tag
    expect(r.sent).toEqual([]);
    expect(r.requester()).toMatchObject({ locks: [0], failed: [], inquiredBy: [0] });
    expect(reached.counts.get('maekawa:relinquish-after-failed')).toBeUndefined();
  });

  it('R3: FAILED from an arbiter whose lock is held is ignored', () => {
    const r = asking();
    r.deliver(0, 'LOCKED', 1);
    r.deliver(0, 'FAILED', 1);
    expect(r.requester()).toMatchObject({ locks: [0], failed: [], yielded: [] });
    r.deliver(0, 'INQUIRE', 1); // unmarked: deferred
    expect(r.sent).toEqual([]);
    expect(r.requester().inquiredBy).toEqual([0]);
  });

  it('R3: a repeated FAILED marks once (after the LOCKED that follows, an INQUIRE is deferred)', () => {
    const r = asking();
    r.deliver(0, 'LOCKED', 1);
    r.deliver(1, 'FAILED', 1);
    r.deliver(1, 'FAILED', 1);
    r.deliver(1, 'LOCKED', 1);
    r.deliver(0, 'INQUIRE', 1);
    expect(r.sent).toEqual([]);
    expect(r.requester()).toMatchObject({ locks: [0, 1], failed: [], yielded: [], inquiredBy: [0] });
  });

  it('R3: FAILED from an arbiter already yielded to adds no second mark', () => {
    const r = asking();
    r.deliver(0, 'LOCKED', 1);
    r.deliver(2, 'FAILED', 1);
    r.deliver(0, 'INQUIRE', 1); // marked: relinquish P0's lock
    r.deliver(0, 'FAILED', 1); // yielded and now failed: still one mark for P0
    expect(r.requester()).toMatchObject({ locks: [], failed: [0, 2], yielded: [0] });
    r.deliver(0, 'LOCKED', 1);
    r.deliver(2, 'LOCKED', 1);
    expect(r.requester()).toMatchObject({ locks: [0, 2], failed: [], yielded: [], waiting: true });
    clear(r);
    r.deliver(2, 'INQUIRE', 1); // no mark left: deferred
    expect(r.sent).toEqual([]);
    expect(r.requester().inquiredBy).toEqual([2]);
  });

  it('R3: FAILED revisits deferred inquiries (reach maekawa:relinquish-after-failed) only when there are some', () => {
    const r = asking();
    r.deliver(0, 'LOCKED', 1);
    r.deliver(0, 'INQUIRE', 1);
    r.deliver(1, 'FAILED', 1);
    expect(r.sent).toEqual(['0:RELINQUISH(1)']);
    expect(r.requester()).toMatchObject({ locks: [], failed: [1], yielded: [0], inquiredBy: [] });
    expect(reached.counts.get('maekawa:relinquish-after-failed')).toBe(1);
    r.deliver(2, 'FAILED', 1); // nothing deferred any more
    expect(r.sent).toEqual(['0:RELINQUISH(1)']);
    expect(reached.counts.get('maekawa:relinquish-after-failed')).toBe(1);
    const fresh = asking();
    fresh.deliver(1, 'FAILED', 1); // nothing deferred ever
    expect(reached.counts.get('maekawa:relinquish-after-failed')).toBe(1);
  });

  it('R4: INQUIRE for a lock not held is ignored (reach maekawa:stale-ignored)', () => {
    const r = asking();
    r.deliver(0, 'LOCKED', 1);
    r.deliver(1, 'INQUIRE', 1);
    expect(r.requester()).toMatchObject({ locks: [0], inquiredBy: [] });
    expect(reached.counts.get('maekawa:stale-ignored')).toBe(1);
    r.deliver(2, 'FAILED', 1);
    r.deliver(1, 'INQUIRE', 1); // marked now, still not held
    expect(r.sent).toEqual([]);
    expect(r.requester()).toMatchObject({ locks: [0], yielded: [], inquiredBy: [] });
    expect(reached.counts.get('maekawa:stale-ignored')).toBe(2);
  });

  it('R4: a repeated INQUIRE is deferred once and answered once', () => {
    const r = asking();
    r.deliver(0, 'LOCKED', 1);
    r.deliver(0, 'INQUIRE', 1);
    r.deliver(0, 'INQUIRE', 1);
    expect(reached.counts.get('maekawa:inquire-deferred')).toBe(1);
    r.deliver(1, 'FAILED', 1);
    r.deliver(2, 'FAILED', 1);
    expect(r.sent).toEqual(['0:RELINQUISH(1)']);
    expect(reached.counts.get('maekawa:relinquish-after-failed')).toBe(1);
  });

  it('R4: a RELINQUISH at once leaves the deferred inquiries alone (a later one is still revisited by FAILED)', () => {
    const r = asking();
    r.deliver(0, 'LOCKED', 1);
    r.deliver(1, 'FAILED', 1);
    r.deliver(0, 'INQUIRE', 1); // marked: RELINQUISH at once, nothing was deferred
    r.deliver(0, 'LOCKED', 1);
    r.deliver(1, 'LOCKED', 1); // no mark left, still waiting for P2
    r.deliver(1, 'INQUIRE', 1); // deferred
    expect(r.requester()).toMatchObject({ locks: [0, 1], failed: [], yielded: [], inquiredBy: [1] });
    r.deliver(2, 'FAILED', 1); // revisits it
    expect(r.sent).toEqual(['0:RELINQUISH(1)', '1:RELINQUISH(1)']);
    expect(r.requester()).toMatchObject({ locks: [0], failed: [2], yielded: [1], inquiredBy: [] });
    expect(reached.counts.get('maekawa:relinquish-after-failed')).toBe(1);
  });
});
