/**
 * The clock a lock manager times `timeout` with, and hands every protocol instance for
 * time-bounded grants: `ProtocolClock` of `@critsec/core` (issue 28), so the simulator's virtual
 * clock and the monotonic clock are interchangeable.
 */
import { monotonicClock, type ProtocolClock } from '@critsec/core';

/** A clock: `now()` and one-shot timers, both in one unit (ms for {@link wallClockMs}). */
export type LockClock = ProtocolClock;

/**
 * The monotonic clock in ms: `performance.now()` and `setTimeout` (unreferenced: it never keeps
 * Node alive) — never the wall clock, despite the name kept for the first release's API.
 */
export const wallClockMs: LockClock = monotonicClock();
