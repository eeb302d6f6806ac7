/**
 * The arbiter's rules A1–A3 (`src/maekawa-arbiter.ts`) driven directly, message by message,
 * including scenes an honest FIFO network never produces: a duplicate or stale REQUEST, a
 * forged or stale RELINQUISH, a RELEASE carrying another tag. Each test names the rule it pins;
 * together they kill the arbiter's mutation-testing survivors listed in the README (issue 14).
 */
import { collectReached, type ReachCollector } from '@critsec/core';
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
    expect(r.arb.snapshot()).toEqual({ grantedTo: 1, grantedReq: 1, inquired: false, queue: [] });
  });

  it('A1: a duplicate or older REQUEST of a queued request is ignored', () => {
    const r = rig();
    r.arb.onRequest(1, 1);
    r.arb.onRequest(2, 5);
    expect(r.sent).toEqual(['1:LOCKED(1)', '2:FAILED(5)']);
    clear(r);
    r.arb.onRequest(2, 5); // duplicate
    r.arb.onRequest(2, 3); // stale: an older request of P2
    expect(r.sent).toEqual([]);
    expect(r.arb.snapshot()).toEqual({ grantedTo: 1, grantedReq: 1, inquired: false, queue: [[2, 5, true]] });
  });

  it('A1: a newer REQUEST from the holder ends its held request first', () => {
    const r = rig();
    r.arb.onRequest(1, 1);
    r.arb.onRequest(2, 2);
    clear(r);
    r.arb.onRequest(1, 3); // releases (1, 1): P2 is granted; then (3, 1) loses against (2, 2)
    expect(r.sent).toEqual(['2:LOCKED(2)', '1:FAILED(3)']);
    expect(r.arb.snapshot()).toEqual({ grantedTo: 2, grantedReq: 2, inquired: false, queue: [[1, 3, true]] });
  });

  it('A1: a newer REQUEST from a queued process replaces its entry', () => {
    const r = rig();
    r.arb.onRequest(1, 1);
    r.arb.onRequest(2, 2);
    clear(r);
    r.arb.onRequest(2, 4);
    expect(r.sent).toEqual(['2:FAILED(4)']);
    expect(r.arb.snapshot()).toEqual({ grantedTo: 1, grantedReq: 1, inquired: false, queue: [[2, 4, true]] });
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
    expect(r.arb.snapshot()).toEqual({ grantedTo: 2, grantedReq: 1, inquired: true, queue: [[1, 1, false]] });
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
    expect(r.arb.snapshot()).toEqual({ grantedTo: 1, grantedReq: 1, inquired: false, queue: [[2, 1, true]] });
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
    expect(r.arb.snapshot()).toEqual({ grantedTo: 2, grantedReq: 1, inquired: false, queue: [] });
    expect(reached.counts.get('maekawa:regrant-relinquisher')).toBe(1);
  });

  it('A2: RELINQUISH from a process not holding the lock, or with a stale tag, is ignored', () => {
    const r = rig();
    r.arb.onRequest(1, 3);
    clear(r);
    r.arb.onRelinquish(2, 3); // forged: P2 does not hold the lock (same tag)
    r.arb.onRelinquish(1, 2); // stale: the holder's older request
    expect(r.sent).toEqual([]);
    expect(r.arb.snapshot()).toEqual({ grantedTo: 1, grantedReq: 3, inquired: false, queue: [] });
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
    expect(r.arb.snapshot()).toEqual({ grantedTo: 1, grantedReq: 1, inquired: false, queue: [[2, 1, true]] });
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
    expect(r.arb.snapshot()).toEqual({ grantedTo: 1, grantedReq: 1, inquired: false, queue: [[3, 1, true]] });
    expect(reached.counts.get('maekawa:inquire')).toBeUndefined();
  });
});
