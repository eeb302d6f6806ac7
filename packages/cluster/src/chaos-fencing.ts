/*
 * The fencing part of a chaos run's check (issue 28 §1–3), from the chaos records of the shared
 * log (launcher-chaos-member.ts logs them for a CS object with a tenure):
 *
 * - **Fencing violations**: a `tenure` record still valid once written (no `tenure-late` of the
 *   same process and token) whose token is not above every earlier valid record's. Sound: if
 *   holder H₂'s valid record follows H₁'s in the log, H₂'s entry completed after H₁'s — were it
 *   the other way round, H₂'s grant at an arbiter of both quorums would have ended before H₁'s
 *   began there, so H₂'s deadline (before any arbiter reclaims, with the drift margin) would have
 *   passed before H₁ entered and H₂'s record, written after H₁'s, would be followed by
 *   `tenure-late` — and tokens strictly increase across successive holders: t₂ > t₁. A member
 *   killed between its record and the check after it counts as valid: it would need to be both
 *   paused past its deadline and killed at that instant to be miscounted.
 * - **Expired grants**: CSs whose tenure had expired (`remaining() ≤ 0`) when the holder came to
 *   exit (`tenure-expired`): a pause past the ttl, or a grant reclaimed while the holder worked.
 * - **Overlaps of the code explained by an expired grant**: with time bounds, exclusion of the
 *   code is not promised under pauses past the ttl (@critsec/core's `Tenure`): the shared log then
 *   shows a paused holder still InCS while the next one holds the grant. An overlap the shared-log
 *   check proves is *explained* when one of its processes logged `tenure-expired` in that CS (same
 *   round, between its `entry-done` before the overlap and its `exit-called` or `crashed` after
 *   it, by the machine's one wall clock); it is reported apart and breaks no safety on effects,
 *   which the lost-update check covers. An overlap no expiry explains is a safety violation as
 *   without tenures (a holder killed after its pause and before its `tenure-expired` leaves its
 *   overlap unexplained: a false alarm, never a missed one).
 * - **Stale operations rejected**: reads and writes the fencing-aware counter refused
 *   (`rmw-fenced`): each is an update a stale holder would otherwise have made.
 */
import type { ChaosLogRecord } from './launcher-chaos-rmw.js';
import type { SharedLogRecord, SharedLogViolation } from './shared-log.js';

/** What the fencing part of `checkChaos` finds (chaos-fencing.ts). */
export interface FencingCheck {
  /** Entries that completed with a tenure (`tenure` records). */
  readonly tenures: number;
  /** Valid-at-entry tokens not above every earlier valid entry's (0 when the tokens are sound). */
  readonly fencingViolations: number;
  /** The first of them, in words (`null` when none). */
  readonly firstFencingViolation: string | null;
  /** CSs whose tenure expired before their exit. */
  readonly expiredGrants: number;
  /** Reads and writes the fencing-aware counter rejected for a stale token. */
  readonly staleRejected: number;
}

/** Checks the fencing records (see the module comment). */
export function checkFencing(chaos: readonly ChaosLogRecord[]): FencingCheck {
  const late = new Set<string>();
  for (const r of chaos) if (r.e === 'tenure-late') late.add(`${r.p}/${r.f}`);
  let highest = Number.NEGATIVE_INFINITY;
  let holder = -1;
  let tenures = 0;
  let violations = 0;
  let first: string | null = null;
  for (const r of chaos) {
    if (r.e !== 'tenure') continue;
    tenures++;
    if (late.has(`${r.p}/${r.f}`)) continue;
    if (r.f <= highest) {
      violations++;
      first ??= `P${r.p} entered with token ${r.f} after P${holder} had entered with ${highest}`;
    } else {
      highest = r.f;
      holder = r.p;
    }
  }
  return {
    tenures,
    fencingViolations: violations,
    firstFencingViolation: first,
    expiredGrants: chaos.filter((r) => r.e === 'tenure-expired').length,
    staleRejected: chaos.filter((r) => r.e === 'rmw-fenced').length,
  };
}

/** The round and wall-clock span of `p`'s CS around record `index`: its last `entry-done` at or before it, to its next `exit-called` or `crashed`. */
function csAround(
  records: readonly SharedLogRecord[],
  p: number,
  index: number,
): { r: number | undefined; from: number; to: number } | undefined {
  let from = -1;
  for (let i = index; i >= 0; i--) {
    const rec = records[i]!;
    if (rec.p !== p) continue;
    if (rec.e === 'entry-done') {
      from = i;
      break;
    }
    if (rec.e === 'exit-called' || rec.e === 'crashed' || rec.e === 'start') return undefined;
  }
  if (from < 0) return undefined;
  const end = records.findIndex(
    (rec, i) => i > index && rec.p === p && (rec.e === 'exit-called' || rec.e === 'crashed'),
  );
  return {
    r: records[from]!.r,
    from: records[from]!.t,
    to: end < 0 ? Number.POSITIVE_INFINITY : records[end]!.t,
  };
}

/**
 * Whether an overlap the shared-log check proved is explained by an expired grant: one of its
 * processes logged `tenure-expired` in the CS it was in (see the module comment).
 */
export function explainedByExpiry(
  records: readonly SharedLogRecord[],
  chaos: readonly ChaosLogRecord[],
  v: SharedLogViolation,
): boolean {
  return v.processes.some((p) => {
    const cs = csAround(records, p, v.index);
    if (cs === undefined) return false;
    return chaos.some(
      (c) => c.e === 'tenure-expired' && c.p === p && c.r === cs.r && c.t >= cs.from && c.t <= cs.to,
    );
  });
}
