import { reachOf } from '@critsec/core/kit';

/**
 * Coverage marks (`reach()` of `@critsec/core`) of Maekawa_M (Figs. 5–6) and Maekawa_S
 * (Figs. 7–8), so tests can assert each rare path was taken:
 *
 * Maekawa_M — `inquire` a node sent INQUIRE; `inquire-same-group` E.14–E.16 (max[g] locks given,
 * a higher request of the same group); `max-locks` E.11 reached; `priority-lost-on-request`
 * E.19–E.23; `priority-lost-on-unlock` F.8–F.12; `switch-group` F.18–F.24; `yield` a node got
 * UNLOCK(false); `inquire-in-cs` B.3 with state = CS (the lock is kept); `stale-inquire` an
 * INQUIRE for another request or a lock not held; `abort`; `stale-locked-returned` a LOCKED for a
 * withdrawn request handed back; `stale-unlock`; `request-set-aside`, `probe`, `probe-current`,
 * `probe-released`, `aside-taken`, `aside-dropped` (a REQUEST that cannot be honest, issue 27 §3);
 * `full-after-withdrawal` F.13 with max[g] locks still given after a withdrawn request;
 * `lock-expired` a node reclaimed a lock (G6), `expired-rerequest` / `expired-ignored` EXPIRED
 * while trying / InCS or stale (G4), `confirm-stale` a CONFIRM for a lock not current (G5) — the
 * fencing and TTL paths of issue 28; `reselected` a waiting request moved to another quorum of its
 * cartel (S2 of `reselect.ts`, issue 28 §4).
 *
 * Maekawa_S — `joined-reference` D.2 granted a request besides the reference; `early-request`
 * D.10–D.11; `deferred` D.12; `new-reference` E.5–E.6; `abort`; `deferred-withdrawn`,
 * `early-withdrawn`, `unlock-before-request`, `cancelled-request-dropped` (abort paths);
 * `stale-grant-returned`.
 */
export const groupMutexRarePaths = {
  /** Maekawa_M's rare paths. */
  M: [
    'group-mutex-m:inquire',
    'group-mutex-m:inquire-same-group',
    'group-mutex-m:max-locks',
    'group-mutex-m:priority-lost-on-request',
    'group-mutex-m:priority-lost-on-unlock',
    'group-mutex-m:switch-group',
    'group-mutex-m:yield',
    'group-mutex-m:inquire-in-cs',
  ],
  /** Maekawa_S's rare paths. */
  S: [
    'group-mutex-s:joined-reference',
    'group-mutex-s:early-request',
    'group-mutex-s:deferred',
    'group-mutex-s:new-reference',
  ],
  /** Maekawa_M's abort paths. */
  abortM: ['group-mutex-m:abort', 'group-mutex-m:stale-unlock'],
  /** Maekawa_S's abort paths. */
  abortS: ['group-mutex-s:abort', 'group-mutex-s:unlock-before-request'],
} as const;

/**
 * Marks of paths no honest run takes (issue 27 §3: a request set aside, a probe) and of other
 * abort and stale-message paths the coverage tests do not require; with
 * {@link groupMutexRarePaths}, every mark of the package.
 */
const otherMarks = [
  'group-mutex-m:aside-dropped',
  'group-mutex-m:confirm-stale',
  'group-mutex-m:expired-ignored',
  'group-mutex-m:expired-rerequest',
  'group-mutex-m:lock-expired',
  'group-mutex-m:aside-taken',
  'group-mutex-m:full-after-withdrawal',
  'group-mutex-m:probe',
  'group-mutex-m:probe-current',
  'group-mutex-m:probe-released',
  'group-mutex-m:request-set-aside',
  'group-mutex-m:reselected',
  'group-mutex-m:stale-inquire',
  'group-mutex-m:stale-locked-returned',
  'group-mutex-s:cancelled-request-dropped',
  'group-mutex-s:deferred-withdrawn',
  'group-mutex-s:early-several',
  'group-mutex-s:early-withdrawn',
  'group-mutex-s:stale-grant-returned',
] as const;

/** @internal `reach()` of `@critsec/core` typed against this package's marks (a typo fails `tsc`). */
export const reach = reachOf([
  ...groupMutexRarePaths.M,
  ...groupMutexRarePaths.S,
  ...groupMutexRarePaths.abortM,
  ...groupMutexRarePaths.abortS,
  ...otherMarks,
]);
