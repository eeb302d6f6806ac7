/**
 * Progress budgets for tests over real networks and real processes (TCP/TLS, OS processes): such
 * a test never fails because the wall clock passed a deadline — a loaded machine is slow, not
 * wrong — but only after **no progress for {@link noProgressMs} ms** (default 120 000, two
 * minutes): no call completed, no message acknowledged, no new line of output, whatever the test
 * counts as a step. Simulator tests are bounded by states, seeds and rounds, never by time.
 */

/** The default limit of {@link noProgressMs}, ms. */
const DEFAULT_NO_PROGRESS_MS = 120_000;

/**
 * How long a real-network test waits without any progress before it fails, ms: 120 000, unless
 * `CRITSEC_NO_PROGRESS_MS` (a positive integer of ms) overrides it.
 */
export function noProgressMs(): number {
  const x = Number(process.env.CRITSEC_NO_PROGRESS_MS ?? '');
  return Number.isSafeInteger(x) && x > 0 ? x : DEFAULT_NO_PROGRESS_MS;
}

/** What {@link progressWatchdog} returns. */
export interface ProgressWatchdog {
  /** Reports one step of progress: the idle time starts again from 0. */
  progress(): void;
  /** Stops watching (idempotent); `onStall` is not called afterwards. */
  stop(): void;
  /** True once `onStall` was called. */
  readonly stalled: boolean;
}

/**
 * Calls `onStall(limitMs)` once, when `progress()` has not been called for `limitMs` ms (default
 * {@link noProgressMs}); the wall clock is checked a few times per limit, by an unreferenced timer
 * (it never keeps the process alive).
 *
 * @throws RangeError when `limitMs` is not a positive number of ms.
 */
export function progressWatchdog(options: {
  readonly limitMs?: number;
  readonly onStall: (limitMs: number) => void;
}): ProgressWatchdog {
  const limitMs = options.limitMs ?? noProgressMs();
  if (!(limitMs > 0) || !Number.isFinite(limitMs))
    throw new RangeError(`limitMs must be a positive number of ms, got ${String(limitMs)}`);
  let last = performance.now();
  let stalled = false;
  const timer = setInterval(
    () => {
      if (performance.now() - last < limitMs) return;
      stalled = true;
      clearInterval(timer);
      options.onStall(limitMs);
    },
    Math.max(1, Math.min(1_000, limitMs / 4)),
  );
  timer.unref?.();
  return {
    progress() {
      last = performance.now();
    },
    stop() {
      clearInterval(timer);
    },
    get stalled() {
      return stalled;
    },
  };
}

/**
 * Polls `done()` every `pollMs` ms (default 5) until it returns true. Progress is a change of
 * `measure()` (compared with `Object.is`; e.g. a count of acknowledged messages): the wait fails
 * only after `measure()` stayed the same, and `done()` false, for `limitMs` ms (default
 * {@link noProgressMs}). Without `measure`, nothing counts as progress: `limitMs` bounds the
 * whole wait (for a single event, such as a connection coming up).
 *
 * @throws Error naming `what` and `limitMs` when the wait stalls.
 */
export async function waitForProgress(
  done: () => boolean,
  options: {
    readonly what: string;
    readonly measure?: () => unknown;
    readonly limitMs?: number;
    readonly pollMs?: number;
  },
): Promise<void> {
  const limitMs = options.limitMs ?? noProgressMs();
  const pollMs = options.pollMs ?? 5;
  let seen = options.measure?.();
  let last = performance.now();
  while (!done()) {
    const now = performance.now();
    const m = options.measure?.();
    if (!Object.is(m, seen)) {
      seen = m;
      last = now;
    } else if (now - last >= limitMs) {
      throw new Error(`no progress for ${limitMs} ms waiting for ${options.what}`);
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
