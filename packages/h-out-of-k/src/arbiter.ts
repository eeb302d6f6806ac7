/**
 * The arbiter role of the h-out-of-k algorithm — h-out-of-k paper (Manabe & Tajima), Sec. 4.1 and
 * **Fig. 1** (`x`, `Que`, `Quelength`; "When request / release / cancelled is arrived",
 * `NewChance`). The rules, the precisions beyond the figure and the arbiter's invariant are in the
 * header of `h-out-of-k.ts`, whose process plays this role and the requester's; it checks each
 * sender's role before handing a message here. Internal to `@critsec/h-out-of-k`.
 */
import { type ProcessId, reach } from '@critsec/core';
import type { HOutOfKMessage } from './messages.js';
import { type Priority, Que } from './que.js';
import type { HOutOfKSnapshot, Rules } from './types.js';

const NONE = -1;

/** The arbiter of one process (Fig. 1: `x`, `Que`). */
export class HOutOfKArbiter {
  /** Number of units k. */
  readonly k: number;
  readonly #rules: Rules;
  readonly #send: (to: ProcessId, msg: HOutOfKMessage) => void;
  /** The process's Lamport clock `c`, read when a message is stamped. */
  readonly #stamp: () => number;
  /** Fig. 1 `x`: free units ("Number of current tokens"). */
  #x: number;
  /** Fig. 1 `Que` (its length is `Quelength`). */
  readonly #Que: Que;

  constructor(
    k: number,
    rules: Rules,
    priority: Priority,
    send: (to: ProcessId, msg: HOutOfKMessage) => void,
    stamp: () => number,
  ) {
    this.k = k;
    this.#stamp = stamp;
    this.#x = k;
    this.#rules = rules;
    this.#send = send;
    this.#Que = new Que(priority);
  }

  /** `x` and `Que` (see {@link HOutOfKSnapshot}). */
  snapshot(): HOutOfKSnapshot['arbiter'] {
    return { x: this.#x, Que: this.#Que.toArray() };
  }

  /** True when `p` has a request in `Que`. */
  hasRequest(p: ProcessId): boolean {
    return this.#Que.indexOf(p) !== NONE;
  }

  /**
   * Fig. 1 "When request(h', p', c') is arrived from p'" (p' asks this arbiter for h' units and has
   * no request in `Que`: checked by the dispatch).
   */
  onRequest(p: ProcessId, h: number, c: number, seq: number): void {
    const j = this.#Que.insert({ clock: c, process: p, units: h, seq, status: 'wait' });
    const fits = this.#Que.unitsThrough(j) <= this.k;
    const enough = this.#rules === 'mutant-grant' ? true : this.#x >= h;
    if (fits && enough) {
      if (j > 0 && this.#Que.at(j - 1).status === 'wait') reach('h-out-of-k:grant-bypass');
      this.#grant(j);
    }
    if (this.#rules === 'mutant-no-cancel') return;
    // Try to cancel "OK" for lower priority requests
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
  onRelease(p: ProcessId, seq: number): void {
    const j = this.#Que.indexOf(p);
    if (j === NONE || this.#Que.at(j).seq !== seq) {
      reach('h-out-of-k:stale-ignored');
      return;
    }
    const e = this.#Que.removeAt(j);
    if (e.status === 'wait') reach('h-out-of-k:release-waiting');
    else this.#x += e.units;
    this.#newChance();
  }

  /** Fig. 1 "When cancelled is arrived from p'" (p' asks this arbiter). */
  onCancelled(p: ProcessId, seq: number): void {
    const j = this.#Que.indexOf(p);
    if (j === NONE || this.#Que.at(j).seq !== seq || this.#Que.at(j).status !== 'cancel') {
      reach('h-out-of-k:stale-ignored');
      return;
    }
    const e = this.#Que.at(j);
    e.status = 'wait';
    this.#x += e.units;
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
    this.#send(e.process, { type: 'OK', seq: e.seq, ts: this.#stamp() });
  }
}
