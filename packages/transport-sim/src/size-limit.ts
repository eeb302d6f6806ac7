/*
 * The most processes one SimNetwork holds, checked in its constructor before anything is
 * allocated: `new SimNetwork({ n: 1e9 })` otherwise built endpoints for 56 s and died of V8's
 * uncatchable heap out-of-memory error.
 */
import { ConfigurationError } from '@critsec/core';

/**
 * The most processes of one `SimNetwork`: 2^20 = 1,048,576. Two reasons: every process
 * costs about 1.5 KB of heap and 50 µs to set up before any protocol runs (its endpoint and
 * receiver; measured at n = 10^6: 1,455 B per process, 53 s), 1.5 GB at the limit; and the links
 * are numbered `(channel · n + from) · n + to` (`link-keys.ts`), exact as a double only while
 * channels · n² ≤ 2^53, which keeps 8,192 channels at n = 2^20.
 */
export const MAX_SIM_PROCESSES = 2 ** 20;

/**
 * @throws ConfigurationError for n > {@link MAX_SIM_PROCESSES}, naming the limit and why.
 */
export function checkSimSize(n: number): void {
  if (n > MAX_SIM_PROCESSES) {
    throw new ConfigurationError(
      `SimNetwork: n = ${n} is more than the ${MAX_SIM_PROCESSES.toLocaleString('en-US')} (2^20) processes one simulated network holds: each costs about 1.5 KB of heap and 50 µs before any protocol runs (1.5 GB at the limit, and V8 ends the process with a heap out-of-memory error no code can catch beyond the heap), and link numbers (channel · n + from) · n + to stay exact only while channels · n² ≤ 2^53; simulate fewer processes`,
    );
  }
}
