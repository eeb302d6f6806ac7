import type { ProtocolClock } from '@critsec/core';
/**
 * Lock managers over the simulator, and a per-name holder check (the monitor of these tests):
 * every callback registers its hold on entry and drops it on exit; an exclusive holder beside any
 * other holder, or more than k shared holders, is a violation.
 */
import { hOutOfKSpec, mutexSpec } from '@critsec/core';
import { SafetyMonitor } from '@critsec/harness';
import { SimNetwork, uniformDelay } from '@critsec/transport-sim';
import type { Registry } from 'prom-client';
import { createLockManager, type Lock, type LockManager, type LockManagerOptions } from '../src/index.js';

export interface SimLocks {
  readonly net: SimNetwork;
  readonly managers: LockManager[];
  readonly clock: ProtocolClock;
}

/**
 * n managers over one simulated network (uniform delays 1–3 by default); `suspectAfter` turns on
 * the network's failure detector (a crashed member suspected that many time units after).
 */
export function simLocks(
  n: number,
  seed: number,
  options: Partial<Omit<LockManagerOptions, 'endpoint' | 'id' | 'n'>> & { registry?: Registry } = {},
  suspectAfter?: number,
): SimLocks {
  const net = new SimNetwork({
    n,
    seed,
    delay: uniformDelay(1, 3),
    ...(suspectAfter === undefined ? {} : { suspectAfter }),
  });
  const clock: ProtocolClock = { now: () => net.now, setTimer: (d, fn) => net.schedule(d, fn) };
  const managers = Array.from({ length: n }, (_, id) =>
    createLockManager({ endpoint: net.endpoint(id), id, n, clock, ...options }),
  );
  return { net, managers, clock };
}

/**
 * The monitor of these tests: per name, a `SafetyMonitor` of `@critsec/harness` (mutual exclusion
 * for an exclusive-only name; h-out-of-k with shared = 1 unit, exclusive = k units for a shared
 * one), fed by every callback's start (InCS) and end (OutCS).
 */
export class HolderCheck {
  readonly monitors = new Map<string, SafetyMonitor>();
  readonly modes = new Map<string, string[]>();
  readonly violations: string[] = [];
  maxShared = 0;
  grants = 0;

  readonly k: number;
  readonly #shared: (name: string) => boolean;
  readonly #now: () => number;

  /** `k` and `shared` as given to the managers; `now` times the violations. */
  constructor(
    readonly n: number,
    options: { k?: number; shared?: (name: string) => boolean; now?: () => number } = {},
  ) {
    this.k = options.k ?? 0;
    this.#shared = options.shared ?? (() => false);
    this.#now = options.now ?? (() => 0);
  }

  enter(id: number, lock: Lock): void {
    this.grants++;
    const m = this.#monitor(lock.name);
    if (this.#shared(lock.name)) m.setRequest(id, lock.mode === 'shared' ? 1 : this.k);
    const v = m.change(id, 'InCS', this.#now());
    if (v !== null) this.violations.push(`${lock.name}: ${v.message}`);
    this.modes.get(lock.name)![id] = lock.mode;
    if (lock.mode === 'shared') this.maxShared = Math.max(this.maxShared, m.inCS);
  }

  exit(id: number, lock: Lock): void {
    const v = this.monitors.get(lock.name)!.change(id, 'OutCS', this.#now());
    if (v !== null) this.violations.push(`${lock.name}: ${v.message}`);
  }

  /** The monitors' view: every holder, as `query()` reports it (tokens aside). */
  view(): { name: string; mode: string; holder: number }[] {
    const out: { name: string; mode: string; holder: number }[] = [];
    for (const name of [...this.monitors.keys()].sort()) {
      this.monitors.get(name)!.states.forEach((s, holder) => {
        if (s === 'InCS') out.push({ name, mode: this.modes.get(name)![holder]!, holder });
      });
    }
    return out;
  }

  #monitor(name: string): SafetyMonitor {
    let m = this.monitors.get(name);
    if (m === undefined) {
      const spec = this.#shared(name) ? hOutOfKSpec(this.k, this.n) : mutexSpec(this.n);
      m = new SafetyMonitor(spec, new Array(this.n).fill('OutCS'));
      this.monitors.set(name, m);
      this.modes.set(name, []);
    }
    return m;
  }
}

/** The outcome of `p`, handled at once (so a rejection awaited after `net.run()` is not reported as unhandled). */
export function settled<T>(p: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  return p.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

/** The error `p` rejected with (fails if it resolved). */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
  const r = await settled(p);
  if (r.ok) throw new Error(`expected a rejection, got ${String(r.value)}`);
  return r.error;
}
