/**
 * LKCS's leader P_LDR (Kamei & Kakugawa 2017, Sec. 5.2): the `while` loop of Algorithm 4 and
 * TriggerNomination (Algorithm 6). When the leader waits and Waiting_LDR = |N_LDR| + 1 (it and
 * all its neighbours wait), it nominates one of them as a trigger, which then re-requests through
 * the sidetrack (Algorithm 7). Deviations 2 and 4 of the README: at most one nomination per type
 * at a time (kept until the trigger returns its sidetrack grant or completed normally), the full
 * grant lists tested, candidates classified by the type of their last Request.
 */
import type { ProcessId } from '@critsec/core';
import { type Arbiter, type Entry, minOf } from './arbiter.js';
import type { LkcsDurableState } from './lkcs-durable.js';
import type { At, LkcsNomination } from './lkcs-protocol.js';
import { reach } from './marks.js';

/** One nomination of the leader: the trigger and how far it got. */
export interface Outstanding {
  /** The nominated trigger P_q. */
  readonly pid: ProcessId;
  /** `'nominated'`: Trigger sent; `'sidetrack'`: its RequestByTrigger arrived. */
  phase: 'nominated' | 'sidetrack';
  /** The tag of the request the Trigger named. */
  readonly tag: number;
}

/** The leader's variables and rules (Algorithms 4 and 6); every process has one, only P_LDR's acts. */
export class LkcsLeader {
  /** The algorithm type of each neighbour's last Request (for TriggerNomination's candidates). */
  readonly lastAt = new Map<ProcessId, At>();
  /**
   * The trigger nominated per type, until its sidetrack grant is returned (`'sidetrack'` ends
   * with its Release of that type) or it completed normally (`'nominated'` ends with its Release
   * of the other type). At most one per type: the slack of one is used once at a time.
   */
  readonly outstanding: Record<At, Outstanding | null> = { MUTIN: null, MUTEX: null };
  /** `'printed'` only: a nomination is out (Algorithm 4's `wait until (Waiting_LDR < |N_LDR| + 1)`). */
  nominated = false;

  constructor(
    /** Whether this process is P_LDR. */
    readonly isLeader: boolean,
    private readonly arb: Record<At, Arbiter>,
    /** |N_LDR| + 1. */
    private readonly size: number,
    private readonly nomination: LkcsNomination,
    private readonly trigger: (to: ProcessId, at: At, tag: number) => void,
  ) {}

  /** Waiting_LDR = |pendingReq[MUTIN]| + |pendingReq[MUTEX]| + |Grant_LDR|. */
  #waitingLDR(): number {
    let both = 0;
    for (const p of this.arb.MUTIN.grantedTo.keys()) if (this.arb.MUTEX.grantedTo.has(p)) both++;
    return this.arb.MUTIN.pendingReq.size + this.arb.MUTEX.pendingReq.size + both;
  }

  /** A RequestByTrigger from P_j: its nomination of type `at` moves to the sidetrack. */
  onRequestByTrigger(j: ProcessId, at: At): void {
    if (this.outstanding[at]?.pid === j) this.outstanding[at]!.phase = 'sidetrack';
  }

  /**
   * A Release of type `at` naming `tag` from P_j; `ended`: it ended P_j's grant at the leader's
   * arbiter. Only such a Release ends P_j's nomination (see `outstanding`): a grant given back
   * because P_j does not know its request (README deviation 11) ends nothing, or a sidetrack still
   * in use would be counted free. A Release naming the very request the Trigger named, from the
   * nominee before its RequestByTrigger, is the nominee's refusal (it never issued that request:
   * one forged in its name) and ends the nomination too.
   */
  trackRelease(j: ProcessId, at: At, tag: number, ended: boolean): void {
    const same = this.outstanding[at];
    if (same?.pid === j && same.phase === 'nominated' && same.tag === tag) {
      reach('lkcs:nomination-refused');
      this.outstanding[at] = null;
    }
    if (!ended) return;
    if (same?.pid === j && same.phase === 'sidetrack') this.outstanding[at] = null;
    const other: At = at === 'MUTIN' ? 'MUTEX' : 'MUTIN';
    const o = this.outstanding[other];
    if (o?.pid === j && o.phase === 'nominated') {
      reach('lkcs:nominee-completed');
      this.outstanding[other] = null;
    }
  }

  /**
   * The `while` body of Algorithm 4 at the leader, run after every event while it waits: when
   * Waiting_LDR = |N_LDR| + 1, nominate (Algorithm 6) — but never a second trigger of a type
   * whose sidetrack is still in use (Algorithm 4's `wait until` is not enough, see the README).
   */
  loop(waiting: boolean): void {
    if (!this.isLeader || !waiting) return;
    if (this.#waitingLDR() < this.size) {
      this.nominated = false;
      return;
    }
    if (this.nomination === 'printed') {
      if (this.nominated) return;
      this.outstanding.MUTIN = null;
      this.outstanding.MUTEX = null;
      this.nominated = this.#triggerNomination();
      return;
    }
    this.#triggerNomination();
  }

  /** Algorithm 6: nominate a trigger; returns false when nobody qualifies. */
  #triggerNomination(): boolean {
    const { MUTIN: mutin, MUTEX: mutex } = this.arb;
    // which grants are exhausted: exits (trigger an entry) or entries (trigger an exit)
    const types: At[] = [];
    if (mutin.grantedTo.size >= mutin.limit) types.push('MUTEX');
    if (mutex.grantedTo.size >= mutex.limit) types.push('MUTIN');
    for (const at of types) {
      if (this.outstanding[at] !== null) continue;
      const h = this.#nominee(at);
      if (h === null) continue;
      reach('lkcs:trigger-nomination');
      this.outstanding[at] = { pid: h.pid, phase: 'nominated', tag: h.tag };
      this.trigger(h.pid, at, h.tag);
      return true;
    }
    return false;
  }

  /**
   * Algorithm 6's choice for type `at`: deleteMin(pendingReq[at]), else the earliest candidate
   * (granted both types here, its current request of type `at`). Returns its process and tag.
   */
  #nominee(at: At): { pid: ProcessId; tag: number } | null {
    const arb = this.arb[at];
    if (arb.pendingReq.size > 0) return arb.takeMin();
    const other = this.arb[at === 'MUTIN' ? 'MUTEX' : 'MUTIN'];
    const candidates = new Map<ProcessId, Entry>();
    for (const [p, e] of arb.grantedTo) {
      if (e.ts !== 0 && this.lastAt.get(p) === at && other.grantedTo.has(p)) candidates.set(p, e);
    }
    if (candidates.size === 0) return null;
    reach('lkcs:trigger-candidate');
    const h = minOf(candidates);
    return { pid: h, tag: candidates.get(h)!.tag };
  }

  /** The leader's durable state (issue 27; `lkcs-durable.ts`). */
  durable(): LkcsDurableState['leader'] {
    const one = (o: Outstanding | null): [ProcessId, Outstanding['phase'], number] | null =>
      o && [o.pid, o.phase, o.tag];
    return {
      lastAt: [...this.lastAt].sort(([a], [b]) => a - b),
      outstanding: { MUTIN: one(this.outstanding.MUTIN), MUTEX: one(this.outstanding.MUTEX) },
      nominated: this.nominated,
    };
  }

  /** Resumes from a recovered (checked) state. */
  restore(s: LkcsDurableState['leader']): void {
    this.lastAt.clear();
    for (const [p, at] of s.lastAt) this.lastAt.set(p, at);
    for (const at of ['MUTIN', 'MUTEX'] as const) {
      const o = s.outstanding[at];
      this.outstanding[at] = o && { pid: o[0], phase: o[1], tag: o[2] };
    }
    this.nominated = s.nominated;
  }

  /** The outstanding nominations as `[P_q, phase]` (for `inspect()`). */
  snapshot(): Record<At, readonly [ProcessId, string] | null> {
    const one = (o: Outstanding | null) => o && ([o.pid, o.phase] as const);
    return { MUTIN: one(this.outstanding.MUTIN), MUTEX: one(this.outstanding.MUTEX) };
  }
}
