/**
 * A member's readiness (`/readyz`): whether it can grant now, from its transport's connections
 * and its failure detector's suspicions — over the quorum an exclusive name's entry at this
 * member asks now: `Q_i`, or with quorum reselection (`@critsec/locks`' `reselect`, issue 28 §4)
 * the quorum of the coterie's family avoiding every suspected member. Shared names (h-out-of-k)
 * ask other quorums and are not judged here (the package README, "Readiness").
 */
import type { ProcessId, Suspicions } from '@critsec/core';
import { type Coterie, quorumAvoiding } from '@critsec/coteries';
import type { Readiness } from './app.js';

/** Options of {@link quorumReadiness}. */
export interface QuorumReadinessOptions {
  /** The coterie of exclusive names (the lock manager's). */
  readonly coterie: Coterie;
  /** This member. */
  readonly id: ProcessId;
  /** Whether the lock manager reselects quorums (its `reselect` option). Default false. */
  readonly reselect?: boolean;
  /** Whether this member is connected to `peer` now (a TCP transport's `isConnected`). */
  readonly isConnected: (peer: ProcessId) => boolean;
  /** The failure detector's suspicions (`RootEndpoint.suspicions`). */
  readonly suspicions: Suspicions;
}

const list = (ids: Iterable<ProcessId>) => [...ids].map((p) => `P${p}`).join(', ');

/**
 * The readiness of member `id`, read at each call: ready when every member of the quorum an
 * entry at `id` asks now is connected and not suspected — `Q_id` without reselection; with it,
 * `quorumAvoiding(coterie, id, suspected)` (what Maekawa's S1 asks), so a member that left or is
 * suspected dead no longer makes this member unready as long as a quorum of the family avoids it.
 * A member disconnected but not yet suspected still counts against it: the entry asks it until
 * the detector suspects it (`suspectAfterMs`), then moves.
 * @returns a function answering `{ ready, detail }` (the detail names the quorum, or whom it misses).
 */
export function quorumReadiness(o: QuorumReadinessOptions): () => Readiness {
  const own = o.coterie.quorumOf(o.id);
  return () => {
    const suspected = o.suspicions.suspected();
    const avoiding = o.reselect === true ? quorumAvoiding(o.coterie, o.id, suspected) : own;
    if (avoiding === undefined) {
      return {
        ready: false,
        detail: `no quorum of ${o.coterie.description} avoids the suspected ${list([...suspected].sort((a, b) => a - b))}`,
      };
    }
    const missing = avoiding.filter((p) => p !== o.id && (!o.isConnected(p) || suspected.has(p)));
    if (missing.length > 0)
      return { ready: false, detail: `not connected to ${list(missing)} of its quorum` };
    const moved =
      avoiding === own ? '' : ` (reselected: ${list(own.filter((p) => suspected.has(p)))} suspected)`;
    return { ready: true, detail: `quorum {${avoiding.join(', ')}} connected${moved}` };
  };
}
