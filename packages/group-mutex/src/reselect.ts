/**
 * Quorum reselection for Maekawa_M's requester (issue 28 §4; a deviation from Joung 2003, whose
 * processes never fail and acquire a fixed quorum per group — README deviation 9). With
 * `groupMutex({ system, variant: 'M', reselect: true })` and a failure detector
 * (`ctx.suspicions` of `@critsec/core`) the rules follow S1–S5 of `@critsec/mutex`'s
 * `maekawa-reselect.ts`, with a family per group — the cartel `C_g` of the group requested:
 *
 * S1 entry(g) asks `cartelQuorumAvoiding(system, g, Q, suspected)` — the process's own quorum `Q`
 *    for g (the plan's: the subgroup assignment, or `system.quorumOf`) while it avoids every
 *    suspect, else the first quorum of `C_g` that does (cyclically after `Q`), else `Q`.
 * S2 while waiting (never InCS), after every change of the suspicions: if the quorum asked holds a
 *    suspected member and another quorum of `C_g` avoids every suspect, the attempt is
 *    **withdrawn** as an aborted entry is (UNLOCK(req, true) to every node asked: a lock held is
 *    given back, a queued request dropped, a LOCKED still in flight handed back on arrival) and
 *    the request is made again on the new quorum under a **new request number** `req + 1`, so no
 *    LOCKED / INQUIRE / FENCE_LOCKED / CONFIRMED / EXPIRED of the withdrawn attempt can count for
 *    the retry (it names the old `req`: stale). When no quorum of `C_g` avoids the suspects, the
 *    request keeps waiting where it is (S2 runs again at the next change).
 * S3 **priority kept**: the retry's REQUEST carries the same timestamp `t`, so its priority
 *    ⟨p, t⟩ — which is all the nodes order requests by (Fig. 6's `rank`) — is exactly the one it
 *    had: no request that came later overtakes it. (Maekawa_M's messages name the request by `req`,
 *    apart from the priority, so unlike Maekawa's tags nothing has to be scaled.)
 * S4 a node takes REQUEST(g) from any process when it belongs to some quorum of `C_g`, and
 *    UNLOCK / CONFIRM from any process when it belongs to some quorum of some cartel; a requester
 *    takes node messages of its current request from the quorum it asks, and those of other
 *    requests from any node of some cartel (`widen`). Every process of a cluster must use the same
 *    setting.
 * S5 with fencing or a ttl (G1–G6): the token is confirmed and the grant renewed with the quorum the
 *    attempt asks (`GroupFence.begin(req, Q)` at every attempt); a member that dies or is cut off
 *    holding a lock — InCS, or waiting with some — loses it at each node within the ttl (G6).
 *
 * Safety never depends on the suspicions: every quorum chosen belongs to the cartel of the group
 * requested, and any two quorums of different cartels intersect (Def. 1 of the paper) whichever
 * were picked; their common node gives its locks to one group at a time (E.4), so two processes of
 * different groups holding every lock of their quorums is impossible. The withdrawal is the
 * abort already handled by F.1–F.24, and the retry a new request with an old priority — a priority
 * nodes have already seen or would have seen had it come first; deadlock-freedom's argument (the
 * highest-priority request is never made to wait for a lower one) is unchanged.
 */
import type { ProcessContext, ProcessId, Suspicions } from '@critsec/core';
import type { GroupQuorumSystem } from '@critsec/coteries';
import type { QuorumPlan } from './plan.js';
import { reach } from './rare-paths.js';

/**
 * A quorum of cartel `C_g` with no member in `suspected`: `own` itself while it avoids them, else
 * the first of `system.cartels[g]` that does, scanning cyclically after `own`'s index (so
 * processes of different subgroups spread over different quorums), else `undefined`.
 */
function cartelQuorumAvoiding(
  system: GroupQuorumSystem,
  g: number,
  own: readonly ProcessId[],
  suspected: ReadonlySet<ProcessId>,
): readonly ProcessId[] | undefined {
  if (!own.some((p) => suspected.has(p))) return own;
  const cartel = system.cartels[g]!;
  const start = Math.max(0, cartel.indexOf(own));
  for (let t = 1; t <= cartel.length; t++) {
    const q = cartel[(start + t) % cartel.length]!;
    if (!q.some((p) => suspected.has(p))) return q;
  }
  return undefined;
}

/**
 * S4: the plan with the sender checks widened — a node is a possible member of every quorum of the
 * cartels it belongs to, for every process; `quorumOf` and `maxLocks` are the plan's.
 */
export function widen(plan: QuorumPlan, system: GroupQuorumSystem): QuorumPlan {
  const ofCartel = system.cartels.map((c) => new Set(c.flat()));
  const anyCartel = new Set(ofCartel.flatMap((s) => [...s]));
  return {
    n: plan.n,
    m: plan.m,
    quorumOf: plan.quorumOf,
    maxLocks: plan.maxLocks,
    contains: (node, _p, g) => ofCartel[g]?.has(node) === true,
    inSomeQuorum: (node) => anyCartel.has(node),
  };
}

/** The requester's quorum choice under reselection (S1, S2), over the process's suspicions. */
export class GroupReselection {
  readonly #system: GroupQuorumSystem;
  readonly #plan: QuorumPlan;
  readonly #id: ProcessId;
  readonly #suspicions: Suspicions;
  readonly #unsubscribe: () => void;

  /** @param onChange called after every change of the suspicions (S2 runs there). */
  constructor(
    system: GroupQuorumSystem,
    plan: QuorumPlan,
    id: ProcessId,
    suspicions: Suspicions,
    onChange: () => void,
  ) {
    [this.#system, this.#plan, this.#id, this.#suspicions] = [system, plan, id, suspicions];
    this.#unsubscribe = suspicions.onChange(onChange);
  }

  /** The reselection of process `ctx.id` over `system` (none: off) when `ctx.suspicions` is given; else undefined. */
  static of(
    system: GroupQuorumSystem | undefined,
    plan: QuorumPlan,
    ctx: ProcessContext,
    onChange: () => void,
  ): GroupReselection | undefined {
    const s = ctx.suspicions;
    return system === undefined || s === undefined
      ? undefined
      : new GroupReselection(system, plan, ctx.id, s, onChange);
  }

  /** S1: the quorum a new request of group `g` asks. */
  choose(g: number): readonly ProcessId[] {
    const own = this.#plan.quorumOf(this.#id, g);
    return cartelQuorumAvoiding(this.#system, g, own, this.#suspicions.suspected()) ?? own;
  }

  /** S2: the quorum of `C_g` to retry on when `asked` holds a suspect and another avoids them; else undefined. */
  retryOn(asked: readonly ProcessId[], g: number): readonly ProcessId[] | undefined {
    const suspected = this.#suspicions.suspected();
    if (!asked.some((p) => suspected.has(p))) return undefined;
    const to = cartelQuorumAvoiding(this.#system, g, asked, suspected);
    if (to !== undefined) reach('group-mutex-m:reselected');
    return to;
  }

  /** Stops listening to the suspicions (the object closed). */
  close(): void {
    this.#unsubscribe();
  }
}
