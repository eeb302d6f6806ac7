/**
 * The arbiter role of the h-out-of-k algorithm — h-out-of-k paper (Manabe & Tajima), Sec. 4.1 and
 * **Fig. 1** (`x`, `Que`, `Quelength`; "When request / release / cancelled is arrived",
 * `NewChance`). The process of `h-out-of-k.ts` plays this role and the requester's (the
 * precisions beyond the figure are in its header); it checks each sender's role before handing a
 * message here. Internal to `@critsec/h-out-of-k`.
 *
 * Arbiter r (initially `x = k`, `Que` empty):
 * - "When request(h', p', c') is arrived": insert `(c', p', h', wait)` in `Que` by priority; if
 *   `Σ_{i ≤ j} Que[i].units ≤ k` and `x ≥ h'`: send OK, status ok, `x := x − h'`. Then with i the
 *   largest index with `Σ_{j ≤ i} Que[j].units ≤ k`, every later entry with status ok gets
 *   `cancel` and status cancel.
 * - "When release is arrived": `x := x + units`, delete the entry, `NewChance`.
 * - "When cancelled is arrived": status wait, `x := x + units`, `NewChance`.
 * - `NewChance`: in priority order, for each waiting entry: if `x < units` stop; else send OK,
 *   status ok, `x := x − units`.
 *
 * Invariant of each arbiter (all handlers are atomic): `x = k − Σ units of entries with status ok
 * or cancel ≥ 0`, and every entry with status ok lies within the prefix of `Que` whose units sum
 * to at most k. `NewChance` grants only within that prefix, because it stops at the first waiting
 * entry that does not fit.
 *
 * **A deviation (issue 27 §3): one request per process, and a `probe` when in doubt.** On FIFO
 * links an honest requester sends `release` before its next `request`, and its `seq` only grows.
 * So a `request` from a process whose request is still in `Que` (with another `seq`), or one whose
 * `seq` is at or below a request of that process already released here, is never honest: a
 * message was forged in its name, or it restarted without its state. The arbiter cannot tell which
 * `seq` is the live one — dropping the second lost a real request (the requester waited for ever,
 * holding other arbiters' units), and a forged one took units nobody gave back. So it keeps the
 * entry in `Que`, sets the new request **aside** (one per process; a further one is ignored until
 * the entry ends) and sends `probe(seq)` for the entry's `seq` (or admits the request and probes its
 * own `seq`). The requester answers `probe(s)` with `release(s)` when `s` is not its current
 * request, and ignores it otherwise (`h-out-of-k.ts`); when the entry ends, the request set aside
 * is admitted as if it had just arrived and probed in turn. Units return to `x` only on a
 * `release` or `cancelled` from their owner, as before: safety is untouched.
 *
 * **A release before the OK is asked about too (issue 27 §3).** In Fig. 1 a `release` follows
 * the CS, so it always finds its entry granted (status ok, or cancel when a `cancel` crossed it).
 * Here an abort also sends one, and so does a forged message in p's name while p still waits —
 * which used to wedge the cluster: the arbiter dropped the entry, and p waited for its OK for ever
 * while holding other arbiters' units. The arbiter cannot tell the two apart, so a `release` of an
 * entry still waiting for its OK ends it as before and sends `probe(seq)`; a `cancelled(seq)`
 * for a request a `release` already ended here (never honest: p sends `cancelled` only while it
 * waits, before any `release` of that request) is probed likewise. The requester answers
 * `probe(seq)` for the request it still waits on, when it holds no OK of that arbiter, by sending
 * the same `request(h, c, seq)` again; the arbiter admits it (a `seq` at or below `done`: in
 * doubt, probed once more and ignored). After an abort the requester answers `release(seq)`, which
 * the arbiter ignores. A `release` of an entry whose OK was given ends it without a question when
 * it causally follows that OK — every honest exit does: the requester's clock passed the OK's on
 * receipt (Sec. 4.1), and its `release` carries it. One stamped at or below the latest OK's clock
 * (below the ceiling `CLOCK_MAX`, where clocks stop growing) was sent before the OK arrived: an
 * abort's, or a forged one while p waits or is InCS. Then the units stay taken and p is probed:
 * after an abort it answers `release` (now with a later clock), while still using the request it
 * ignores the probe, and its exit's `release` ends the entry.
 *
 * **A `cancelled` for an OK still given is answered with the OK (issue 27 §3).** A `cancel` goes
 * only from status ok, which it turns to cancel, and `cancelled` answers it: one that finds its
 * entry in status ok means a `cancel` forged in this arbiter's name reached p, and p, waiting,
 * gave the OK back. The units stay taken (the `cancelled` itself may be forged while p is InCS)
 * and the `OK` goes again; before, p waited for it for ever.
 */
import type { ProcessId } from '@critsec/core';
import { CLOCK_MAX } from '@critsec/transport';
import { ArbiterFence, type ArbiterFenceOptions } from './arbiter-fence.js';
import { reach } from './rare-paths.js';
import type { HOutOfKDurableState } from './durable.js';
import type { HOutOfKMessage } from './messages.js';
import { type Priority, Que, type QueEntry } from './que.js';
import type { HOutOfKSnapshot } from './types.js';

const NONE = -1;

/** @internal the arbiter's class: {@link HOutOfKArbiter}, or a test's subclass of it. */
export type ArbiterClass = new (...args: ConstructorParameters<typeof HOutOfKArbiter>) => HOutOfKArbiter;

/**
 * The arbiter of one process (Fig. 1: `x`, `Que`). The two decisions of "When request is
 * arrived" — {@link HOutOfKArbiter.enough} and {@link HOutOfKArbiter.cancelLowerPriority} — are
 * protected methods so the tests can show that a subclass breaking either one is caught.
 */
export class HOutOfKArbiter {
  /** Number of units k. */
  readonly k: number;
  readonly #send: (to: ProcessId, msg: HOutOfKMessage) => void;
  /** The process's Lamport clock `c`, read when a message is stamped. */
  readonly #stamp: () => number;
  /** Fig. 1 `x`: free units ("Number of current tokens"). */
  #x: number;
  /** Fig. 1 `Que` (its length is `Quelength`). */
  readonly #Que: Que;
  /** Requests set aside (never on an honest run), by process. */
  readonly #aside = new Map<ProcessId, { readonly h: number; readonly c: number; readonly seq: number }>();
  /** Processes whose entry in `Que` was admitted in doubt (from aside, or probed on arrival). */
  readonly #suspect = new Set<ProcessId>();
  /** `done[p]`: the largest `seq` of `p` whose entry a `release` ended here, −1 if none. */
  readonly #done: Float64Array;
  /** Fencing and time-bounded grants (issue 28, G1–G2 of `arbiter-fence.ts`); absent: neither. */
  readonly #fence: ArbiterFence | undefined;

  /** @param fence fencing (G1) and, with a ttl and a clock, time-bounded grants (G2); absent: neither. */
  constructor(
    n: number,
    k: number,
    priority: Priority,
    send: (to: ProcessId, msg: HOutOfKMessage) => void,
    stamp: () => number,
    fence?: ArbiterFenceOptions,
  ) {
    this.k = k;
    this.#stamp = stamp;
    this.#x = k;
    this.#send = send;
    this.#Que = new Que(priority);
    this.#done = new Float64Array(n).fill(NONE);
    this.#fence =
      fence === undefined ? undefined : new ArbiterFence(fence, (p, seq) => this.#reclaim(p, seq));
  }

  /** G1: the highest fencing token seen (0 without fencing). */
  get highestToken(): number {
    return this.#fence?.hs ?? 0;
  }

  /** `x` and `Que` (see {@link HOutOfKSnapshot}). */
  snapshot(): HOutOfKSnapshot['arbiter'] {
    const snap = { x: this.#x, Que: this.#Que.toArray() };
    if (this.#aside.size === 0) return snap;
    const aside = [...this.#aside]
      .map(([p, r]): [ProcessId, number] => [p, r.seq])
      .sort((a, b) => a[0] - b[0]);
    return { ...snap, aside };
  }

  /** Every variable of the arbiter role as JSON (`arbiter` of {@link HOutOfKDurableState}). */
  durable(): HOutOfKDurableState['arbiter'] {
    const Que = this.#Que
      .entries()
      .map((e): HOutOfKDurableState['arbiter']['Que'][number] => [
        e.process,
        e.clock,
        e.units,
        e.status,
        e.seq,
        e.okTs ?? NONE,
      ]);
    const done: [ProcessId, number][] = [];
    this.#done.forEach((seq, p) => {
      if (seq !== NONE) done.push([p, seq]);
    });
    return {
      x: this.#x,
      Que,
      aside: [...this.#aside].map(([p, r]): [ProcessId, number, number, number] => [p, r.h, r.c, r.seq]),
      suspect: [...this.#suspect],
      done,
      ...(this.#fence === undefined ? {} : { hs: this.#fence.hs }),
    };
  }

  /** Resumes from a recovered state (checked by `parseHOutOfKDurable`), replacing the initial one. */
  restore(a: HOutOfKDurableState['arbiter']): void {
    this.#x = a.x;
    for (const [process, clock, units, status, seq, okTs] of a.Que) {
      this.#Que.insert({ process, clock, units, status, seq, ...(okTs === NONE ? {} : { okTs }) });
    }
    for (const [p, h, c, seq] of a.aside) this.#aside.set(p, { h, c, seq });
    for (const p of a.suspect) this.#suspect.add(p);
    for (const [p, seq] of a.done) this.#done[p] = seq;
    if (this.#fence === undefined) return;
    this.#fence.hs = a.hs ?? 0;
    for (const e of this.#Que.entries()) if (e.status !== 'wait') this.#fence.arm(e.process, e.seq);
  }

  /** G1: `confirm(seq, token, round)` from `p` (p asks this arbiter: checked by the dispatch). */
  onConfirm(p: ProcessId, seq: number, token: number, round: number): void {
    const j = this.#Que.indexOf(p);
    if (
      this.#fence === undefined ||
      j === NONE ||
      this.#Que.at(j).seq !== seq ||
      this.#Que.at(j).status === 'wait'
    ) {
      reach('h-out-of-k:confirm-stale');
      return;
    }
    this.#fence.confirm(p, seq, token);
    this.#send(p, { type: 'confirmed', seq, round, ts: this.#stamp() });
  }

  /** G2: `p`'s OK for `seq` was not renewed within the ttl: its units come back, its entry goes. */
  #reclaim(p: ProcessId, seq: number): void {
    const j = this.#Que.indexOf(p);
    if (j === NONE || this.#Que.at(j).seq !== seq || this.#Que.at(j).status === 'wait') return;
    reach('h-out-of-k:grant-expired');
    const e = this.#Que.removeAt(j);
    this.#x += e.units;
    this.#send(p, { type: 'expired', seq, ts: this.#stamp() });
    this.#newChance();
    this.#suspect.delete(p);
    const aside = this.#aside.get(p);
    if (aside === undefined) return;
    this.#aside.delete(p);
    this.#admit(p, aside.h, aside.c, aside.seq);
    this.#suspect.add(p);
    this.#probe(p, aside.seq);
  }

  /** Stops every grant's timer (the process closes). */
  close(): void {
    this.#fence?.close();
  }

  /**
   * A request from p' (p' asks this arbiter for h' units: checked by the dispatch): Fig. 1 "When
   * request(h', p', c') is arrived from p'", or, when it cannot be honest, set aside or probed.
   */
  onRequest(p: ProcessId, h: number, c: number, seq: number): void {
    const j = this.#Que.indexOf(p);
    if (j !== NONE) {
      const entry = this.#Que.at(j).seq;
      if (seq === entry || this.#aside.has(p)) return;
      reach('h-out-of-k:request-set-aside');
      this.#aside.set(p, { h, c, seq });
      this.#probe(p, entry);
      return;
    }
    this.#admit(p, h, c, seq);
    if (seq > this.#done[p]!) return;
    this.#suspect.add(p);
    this.#probe(p, seq);
  }

  #probe(p: ProcessId, seq: number): void {
    reach('h-out-of-k:probe');
    this.#send(p, { type: 'probe', seq, ts: this.#stamp() });
  }

  /** Fig. 1 "When request(h', p', c') is arrived from p'" (p' has no request in `Que`). */
  #admit(p: ProcessId, h: number, c: number, seq: number): void {
    const j = this.#Que.insert({ clock: c, process: p, units: h, seq, status: 'wait' });
    const fits = this.#Que.unitsThrough(j) <= this.k;
    if (fits && this.enough(h)) {
      if (j > 0 && this.#Que.at(j - 1).status === 'wait') reach('h-out-of-k:grant-bypass');
      this.#grant(j);
    }
    this.cancelLowerPriority();
  }

  /** Fig. 1 "if x ≥ h'": enough free units to grant `h` now. */
  protected enough(h: number): boolean {
    return this.#x >= h;
  }

  /** Fig. 1 "Try to cancel "OK" for lower priority requests": every OK outside the k-unit prefix. */
  protected cancelLowerPriority(): void {
    let cancels = 0;
    for (let i = this.#Que.prefixEnd(this.k) + 1; i < this.#Que.length; i++) {
      const e = this.#Que.at(i);
      if (e.status !== 'ok') continue;
      e.status = 'cancel';
      cancels++;
      reach('h-out-of-k:cancel');
      this.#send(e.process, { type: 'cancel', seq: e.seq, ts: this.#stamp() });
    }
    if (cancels > 1) reach('h-out-of-k:multi-cancel');
  }

  /** Fig. 1 "When release is arrived from p'" (also the withdrawal of an aborted request; p' asks this arbiter). */
  onRelease(p: ProcessId, seq: number, ts: number): void {
    const j = this.#Que.indexOf(p);
    if (j === NONE || this.#Que.at(j).seq !== seq) {
      if (this.#aside.get(p)?.seq === seq)
        this.#aside.delete(p); // the request set aside, withdrawn
      else reach('h-out-of-k:stale-ignored');
      return;
    }
    const { okTs, status } = this.#Que.at(j);
    if (status !== 'wait' && okTs !== undefined && ts <= okTs && ts < CLOCK_MAX) {
      // units taken, and sent before p got this arbiter's OK (p's clock passes okTs on receipt,
      // Sec. 4.1): an abort's, or forged while p waits — keep them and ask p (the file header)
      reach('h-out-of-k:release-before-ok');
      this.#suspect.add(p);
      this.#probe(p, seq);
      return;
    }
    const e = this.#Que.removeAt(j);
    if (e.status !== 'wait') this.#x += e.units;
    this.#fence?.stop(p);
    this.#newChance();
    if (seq > this.#done[p]!) this.#done[p] = seq;
    if (e.status === 'wait') {
      // Fig. 1 has no release before every OK (the CS comes first); here it is an abort's, or a
      // forged one while p still waits for this OK — ask p (the file header, "a release …")
      reach('h-out-of-k:release-waiting');
      this.#probe(p, seq);
    }
    const wasSuspect = this.#suspect.delete(p);
    const aside = this.#aside.get(p);
    if (aside === undefined) return;
    this.#aside.delete(p);
    // an entry admitted without doubt was p's live request, and p released it: a request set
    // aside with a larger seq was not p's (p sends none before its release), and admitting it
    // could take the seq of p's next request with other units — it is dropped
    if (!wasSuspect && aside.seq > seq) {
      reach('h-out-of-k:aside-dropped');
      return;
    }
    reach('h-out-of-k:aside-admitted');
    this.#admit(p, aside.h, aside.c, aside.seq);
    this.#suspect.add(p);
    this.#probe(p, aside.seq);
  }

  /** Fig. 1 "When cancelled is arrived from p'" (p' asks this arbiter). */
  onCancelled(p: ProcessId, seq: number): void {
    const j = this.#Que.indexOf(p);
    if (j === NONE || this.#Que.at(j).seq !== seq) {
      // an honest `cancelled` finds its entry (p sends it while waiting, before any release of
      // that request); none left means a forged release ended it while p waits: ask p
      if (seq <= this.#done[p]! && this.#aside.get(p)?.seq !== seq) {
        reach('h-out-of-k:cancelled-after-release');
        this.#probe(p, seq);
      } else reach('h-out-of-k:stale-ignored');
      return;
    }
    const e = this.#Que.at(j);
    if (e.status === 'ok') {
      // never honest (p answers a cancel, sent in status cancel): p gave back an OK this arbiter
      // still counts as given — a cancel forged in its name reached p. The units stay taken (p may
      // be InCS, if the cancelled is forged); the OK goes again, so a waiting p is not wedged
      reach('h-out-of-k:ok-again');
      this.#sendOK(e);
      return;
    }
    if (e.status !== 'cancel') {
      reach('h-out-of-k:stale-ignored');
      return;
    }
    e.status = 'wait';
    this.#x += e.units;
    this.#fence?.stop(p);
    this.#newChance();
  }

  /** Fig. 1 `procedure NewChance; /* When tokens are released. *\/`. */
  #newChance(): void {
    for (let i = 0; i < this.#Que.length; i++) {
      const e = this.#Que.at(i);
      if (e.status !== 'wait') continue;
      if (this.#x < e.units) {
        if (i + 1 < this.#Que.length) reach('h-out-of-k:newchance-blocked');
        return;
      }
      this.#grant(i);
    }
  }

  #grant(j: number): void {
    const e = this.#Que.at(j);
    e.status = 'ok';
    this.#x -= e.units;
    this.#sendOK(e);
    this.#fence?.arm(e.process, e.seq);
  }

  /** Fig. 1's `OK` (with `hs` when fenced, G1). */
  #sendOK(e: QueEntry): void {
    e.okTs = this.#stamp();
    const fence = this.#fence;
    this.#send(
      e.process,
      fence === undefined
        ? { type: 'OK', seq: e.seq, ts: e.okTs }
        : { type: 'OK', seq: e.seq, ts: e.okTs, hs: fence.hs },
    );
  }
}
