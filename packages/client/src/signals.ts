/**
 * The client's waits: one signal that aborts when any of several does or a deadline passes
 * (written here rather than `AbortSignal.any`, which Node 20.0–20.2 lacks), and a sleep that
 * a signal ends. Only the web platform's timers and `AbortController`: no Node-only API.
 */
import { ConnectionError } from './errors.js';

/** A signal linked to others and a deadline; `dispose()` frees the listeners and the timer. */
export interface Linked {
  /** Aborts with the first reason among the linked signals', or a {@link ConnectionError} at the deadline. */
  readonly signal: AbortSignal;
  /** Unlinks: call once the wait is over. */
  dispose(): void;
}

/**
 * A signal aborted when one of `signals` aborts (with its reason) or `deadlineMs` ms pass (no
 * deadline when undefined) — with `late()`, by default a `ConnectionError` saying that `what` had
 * no answer in time.
 */
export function linked(
  signals: readonly (AbortSignal | undefined)[],
  deadlineMs: number | undefined,
  what: string,
  late: () => unknown = () =>
    new ConnectionError('UNREACHABLE', 0, `${what}: no answer within ${deadlineMs} ms`),
): Linked {
  const ctl = new AbortController();
  const undo: (() => void)[] = [];
  for (const s of signals) {
    if (s === undefined) continue;
    if (s.aborted) {
      ctl.abort(s.reason);
      break;
    }
    const on = () => ctl.abort(s.reason);
    s.addEventListener('abort', on, { once: true });
    undo.push(() => s.removeEventListener('abort', on));
  }
  if (deadlineMs !== undefined && !ctl.signal.aborted) {
    const timer = setTimeout(() => ctl.abort(late()), deadlineMs);
    undo.push(() => clearTimeout(timer));
  }
  return {
    signal: ctl.signal,
    dispose() {
      for (const u of undo.splice(0)) u();
    },
  };
}

/** Resolves after `ms` ms, or at once when `signal` aborts (never rejects). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Keeps a timer from holding a process open where the runtime can (Node, Bun: `unref`); a no-op elsewhere. */
export function unref(timer: unknown): void {
  (timer as { unref?: () => void } | undefined)?.unref?.();
}
