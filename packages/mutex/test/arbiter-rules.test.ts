/**
 * The arbiter's rules A1–A3 (`src/maekawa-arbiter.ts`) driven directly, message by message,
 * including scenes an honest FIFO network never produces: a duplicate or stale REQUEST, a
 * forged or stale RELINQUISH, a RELEASE carrying another tag. Each test names the rule it pins;
 * together they kill the arbiter's mutation-testing survivors listed in the README (issue 14).
 */
import { collectReached, type ReachCollector } from '@critsec/core/kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MaekawaArbiter } from '../src/maekawa-arbiter.js';
import type { MaekawaRules } from '../src/maekawa-protocol.js';

interface Rig {
  readonly arb: MaekawaArbiter;
  /** Messages sent, as `to:TYPE(req)`. */
  readonly sent: string[];
}

/** Arbiter P0 of 4 processes, asked by everyone unless `reporters` says otherwise. */
function rig(opts: { reporters?: number[]; holder?: number; rules?: MaekawaRules } = {}): Rig {
  const sent: string[] = [];
  const arb = new MaekawaArbiter(
    {
      id: 0,
      n: 4,
      reporters: opts.reporters ?? [0, 1, 2, 3],
      clock: { sn: 9 },
      send: (to, msg) => {
        expect(msg.ts).toBe(9);
        sent.push(`${to}:${msg.type}(${msg.req})`);
      },
    },
    opts.rules ?? 'sanders',
    opts.holder ?? -1,
  );
  return { arb, sent };
}

/** Empties the record of messages sent so far. */
function clear(r: Rig): void {
  r.sent.length = 0;
}

describe('MaekawaArbiter rules, driven directly', () => {
  let reached: ReachCollector;
  beforeEach(() => {
    reached = collectReached();
  });
  afterEach(() => reached.stop());

  it('initially locked only for an initial holder that may ask it (first reporter included)', () => {
    expect(rig({ reporters: [1, 2, 3], holder: 1 }).arb.snapshot()).toEqual({
      grantedTo: 1,
      grantedReq: 0,
      inquired: false,
      queue: [],
      aside: [],
    });
    expect(rig({ reporters: [1, 2, 3], holder: 0 }).arb.snapshot().grantedTo).toBe(-1);
    expect(rig({ reporters: [1, 2, 3] }).arb.snapshot().grantedTo).toBe(-1);
  });

  it('only the processes of R_i may ask: mayAsk (the process reports and drops the others)', () => {
    const r = rig({ reporters: [0, 1, 2] });
    expect([0, 1, 2, 3].map((p) => r.arb.mayAsk(p))).toEqual([true, true, true, false]);
    expect(rig({ reporters: [3] }).arb.mayAsk(3)).toBe(true);
    expect(rig({ reporters: [3] }).arb.mayAsk(0)).toBe(false);
  });

  it('A1: a duplicate REQUEST of the held request is ignored (no second LOCKED)', () => {
    const r = rig();
    r.arb.onRequest(1, 1);
    expect(r.sent).toEqual(['1:LOCKED(1)']);
    clear(r);
    r.arb.onRequest(1, 1);
    expect(r.sent).toEqual([]);
    expect(r.arb.snapshot()).toEqual({ grantedTo: 1, grantedReq: 1, inquired: false, queue: [], aside: [] });
  });

  it('A1: a duplicate REQUEST of a queued request is ignored', () => {
    const r = rig();
    r.arb.onRequest(1, 1);
    r.arb.onRequest(2, 5);
    expect(r.sent).toEqual(['1:LOCKED(1)', '2:FAILED(5)']);
    clear(r);
    r.arb.onRequest(2, 5);
    expect(r.sent).toEqual([]);
    expect(r.arb.snapshot()).toEqual({
      grantedTo: 1,
      grantedReq: 1,
      inquired: false,
      queue: [[2, 5, true]],
      aside: [],
    });
  });

  it('A4: a newer REQUEST from the holder is set aside and the held tag probed; the lock stays (issue 27 §3)', () => {
    const r = rig();
    r.arb.onRequest(1, 1);
    r.arb.onRequest(2, 2);
    clear(r);
    // P1 may be InCS under tag 1: the REQUEST alone must not end its grant (the old code did)
    r.arb.onRequest(1, 3);
    expect(r.sent).toEqual(['1:PROBE(1)']);
    expect(r.arb.snapshot()).toEqual({
      grantedTo: 1,
      grantedReq: 1,
      inquired: false,
      queue: [[2, 2, true]],
      aside: [[1, 3]],
    });
    r.arb.onRequest(1, 4); // one request set aside per process: a further one is ignored
    expect(r.sent).toEqual(['1:PROBE(1)']);
    clear(r);
    // P1 answers (tag 1 is not its current request) or exits: the grant ends, P2 is granted, and
    // P1's request set aside is admitted by A1 — it loses against (2, 2) — and probed in turn
    r.arb.onRelease(1, 1);
    expect(r.sent).toEqual(['2:LOCKED(2)', '1:FAILED(3)', '1:PROBE(3)']);
    expect(r.arb.snapshot()).toEqual({
      grantedTo: 2,
      grantedReq: 2,
      inquired: false,
      queue: [[1, 3, true]],
      aside: [],
    });
    expect(reached.counts.get('maekawa:request-set-aside')).toBe(1);
    expect(reached.counts.get('maekawa:aside-admitted')).toBe(1);
    expect(reached.counts.get('maekawa:probe')).toBe(2);
  });

  it('A4: a REQUEST with another tag from a queued process is set aside (older or newer) and the queued tag probed', () => {
    for (const other of [1, 4]) {
      const r = rig();
      r.arb.onRequest(1, 1);
      r.arb.onRequest(2, 2);
      clear(r);
      r.arb.onRequest(2, other);
      expect(r.sent).toEqual(['2:PROBE(2)']);
      expect(r.arb.snapshot()).toEqual({
        grantedTo: 1,
        grantedReq: 1,
        inquired: false,
        queue: [[2, 2, true]],
        aside: [[2, other]],
      });
      clear(r);
      // a RELEASE of the request set aside withdraws it; one of the queued entry cancels that
      r.arb.onRelease(2, other);
      expect(r.arb.snapshot().aside).toEqual([]);
      r.arb.onRequest(2, other);
      r.arb.onRelease(2, 2);
      expect(r.sent).toEqual(['2:PROBE(2)', '2:FAILED(' + other + ')', '2:PROBE(' + other + ')']);
      expect(r.arb.snapshot()).toEqual({
        grantedTo: 1,
        grantedReq: 1,
        inquired: false,
        queue: [[2, other, true]],
        aside: [],
      });
    }
  });

  it('A4: a REQUEST with a tag at or below one already released here is admitted and probed; an honest later one is not', () => {
    const r = rig();
    r.arb.onRequest(1, 5);
    r.arb.onRelease(1, 5);
    clear(r);
    r.arb.onRequest(1, 5); // a replay (or a forgery) of a tag P1 gave up: granted, but P1 is asked
    expect(r.sent).toEqual(['1:LOCKED(5)', '1:PROBE(5)']);
    r.arb.onRelease(1, 5); // P1's answer: not its current request
    clear(r);
    r.arb.onRequest(1, 0); // tag 0 is no process's request (the initial holder's only)
    expect(r.sent).toEqual(['1:LOCKED(0)', '1:PROBE(0)']);
    r.arb.onRelease(1, 0);
    clear(r);
    r.arb.onRequest(1, 6); // above every tag of P1 that ended here: as in the paper
    expect(r.sent).toEqual(['1:LOCKED(6)']);
  });

  it('A1: a request that is not the top is queued with its failed flag', () => {
    const r = rig();
    r.arb.onRequest(1, 1);
    r.arb.onRequest(2, 1);
    expect(r.sent).toEqual(['1:LOCKED(1)', '2:FAILED(1)']);
    expect(r.arb.snapshot().queue).toEqual([[2, 1, true]]);
    clear(r);
    r.arb.onRequest(0, 1); // the top: the head (2, 1) already knows, so no second FAILED
    expect(r.sent).toEqual(['1:INQUIRE(1)']);
    expect(r.arb.snapshot().queue).toEqual([
      [0, 1, false],
      [2, 1, true],
    ]);
  });

  it('A1: the top request is queued unflagged and the holder gets one INQUIRE (reach maekawa:inquire)', () => {
    const r = rig();
    r.arb.onRequest(2, 1);
    r.arb.onRequest(1, 1);
    expect(r.sent).toEqual(['2:LOCKED(1)', '2:INQUIRE(1)']);
    expect(r.arb.snapshot()).toEqual({
      grantedTo: 2,
      grantedReq: 1,
      inquired: true,
      queue: [[1, 1, false]],
      aside: [],
    });
    expect(reached.counts.get('maekawa:inquire')).toBe(1);
  });

  it('paraphrased rules: an entry is flagged exactly when it does not beat the holder', () => {
    const r = rig({ rules: 'paraphrased' });
    r.arb.onRequest(2, 1);
    r.arb.onRequest(1, 1); // beats the holder: unflagged, INQUIRE
    r.arb.onRequest(3, 1); // does not: flagged, FAILED
    expect(r.sent).toEqual(['2:LOCKED(1)', '2:INQUIRE(1)', '3:FAILED(1)']);
    expect(r.arb.snapshot().queue).toEqual([
      [1, 1, false],
      [3, 1, true],
    ]);
  });

  it('A2: RELINQUISH requeues the holder with its failed flag and grants the top', () => {
    const r = rig();
    r.arb.onRequest(2, 1);
    r.arb.onRequest(1, 1);
    clear(r);
    r.arb.onRelinquish(2, 1);
    expect(r.sent).toEqual(['1:LOCKED(1)']);
    expect(r.arb.snapshot()).toEqual({
      grantedTo: 1,
      grantedReq: 1,
      inquired: false,
      queue: [[2, 1, true]],
      aside: [],
    });
    expect(reached.counts.get('maekawa:regrant-relinquisher')).toBeUndefined();
  });

  it('A2: the relinquisher is granted again when the top was withdrawn (reach maekawa:regrant-relinquisher)', () => {
    const r = rig();
    r.arb.onRequest(2, 1);
    r.arb.onRequest(1, 1);
    r.arb.onRelease(1, 1); // the top withdraws
    clear(r);
    r.arb.onRelinquish(2, 1);
    expect(r.sent).toEqual(['2:LOCKED(1)']);
    expect(r.arb.snapshot()).toEqual({ grantedTo: 2, grantedReq: 1, inquired: false, queue: [], aside: [] });
    expect(reached.counts.get('maekawa:regrant-relinquisher')).toBe(1);
  });

  it('A2: RELINQUISH from a process not holding the lock, or with a stale tag, is ignored', () => {
    const r = rig();
    r.arb.onRequest(1, 3);
    clear(r);
    r.arb.onRelinquish(2, 3); // forged: P2 does not hold the lock (same tag)
    r.arb.onRelinquish(1, 2); // stale: the holder's older request
    expect(r.sent).toEqual([]);
    expect(r.arb.snapshot()).toEqual({ grantedTo: 1, grantedReq: 3, inquired: false, queue: [], aside: [] });
  });

  it('A3: RELEASE of a queued request cancels it only with its own tag; unknown RELEASEs are ignored', () => {
    const r = rig();
    r.arb.onRequest(1, 1);
    r.arb.onRequest(2, 1);
    clear(r);
    r.arb.onRelease(2, 7); // another tag
    r.arb.onRelease(3, 1); // nothing of P3 here
    r.arb.onRelease(1, 2); // the holder, another tag
    expect(r.sent).toEqual([]);
    expect(r.arb.snapshot()).toEqual({
      grantedTo: 1,
      grantedReq: 1,
      inquired: false,
      queue: [[2, 1, true]],
      aside: [],
    });
    r.arb.onRelease(2, 1);
    expect(r.arb.snapshot().queue).toEqual([]);
  });

  it('A3: cancelling a queued request does not INQUIRE when the new head does not beat the holder', () => {
    const r = rig();
    r.arb.onRequest(1, 1);
    r.arb.onRequest(2, 1);
    r.arb.onRequest(3, 1);
    clear(r);
    r.arb.onRelease(2, 1);
    expect(r.sent).toEqual([]);
    expect(r.arb.snapshot()).toEqual({
      grantedTo: 1,
      grantedReq: 1,
      inquired: false,
      queue: [[3, 1, true]],
      aside: [],
    });
    expect(reached.counts.get('maekawa:inquire')).toBeUndefined();
  });
});
