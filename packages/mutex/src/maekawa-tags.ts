/**
 * The tags of Maekawa's requests (Fig. 5 A.5: `sn := sn + 1`; the request's timestamp is its
 * priority and its **tag**, named by every message of that request).
 *
 * The clock saturates at `CLOCK_MAX` (`tick`/`witness` of `@critsec/transport`): a peer's clock
 * can only raise it, and one forged `ts = 2^53 − 1` must not make this process's next REQUEST
 * leave the validated range (issue 15). No honest cluster gets there (there the tag is the stamp,
 * as in the paper). At the ceiling a request's tag is the process's previous tag + 1 instead:
 * tags stay distinct per process (stale messages are still recognised), the priority `(tag, id)`
 * stays a total order (deadlock-free, mutual exclusion never depended on it), and a waiting
 * request is overtaken only boundedly often (each other process's tags grow by one per request):
 * no starvation. Only after `CLOCK_MAX` requests at the ceiling would tags repeat.
 *
 * Under quorum reselection (issue 28 §4, S3 of `maekawa-reselect.ts`) the tag is the stamp
 * scaled, `ts · RETRY_SLOTS`, so that a retry (the previous tag + 1) keeps its place among the
 * other timestamps.
 */
import { CLOCK_MAX, tick } from '@critsec/transport';

/** Tags per Lamport timestamp under reselection (S3): a request's tag is `ts · RETRY_SLOTS + retries`. */
const RETRY_SLOTS = 1024;

/**
 * A.5 for a new request: advances `clock.sn` (saturating) and returns `[ts, tag]` — the tag is
 * the stamp (scaled by {@link RETRY_SLOTS} when `scaled`), or the next of this process's own tags
 * at the ceiling; always above `lastTag`.
 */
export function newRequest(clock: { sn: number }, lastTag: number, scaled: boolean): [number, number] {
  const ts = tick(clock.sn);
  clock.sn = ts;
  if (!scaled) return [ts, ts < CLOCK_MAX ? ts : tick(lastTag)];
  const tag = ts * RETRY_SLOTS;
  return [ts, tag < CLOCK_MAX && tag > lastTag ? tag : tick(lastTag)];
}
