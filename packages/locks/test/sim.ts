/**
 * Lock managers over the simulator, and a per-name holder check (the monitor of these tests):
 * every callback registers its hold on entry and drops it on exit; an exclusive holder beside any
 * other holder, or more than k shared holders, is a violation.
 */
import { SimNetwork, uniformDelay } from '@critsec/transport-sim';
import type { Registry } from 'prom-client';
import {
  createLockManager,
  type Lock,
  type LockClock,
  type LockManager,
  type LockManagerOptions,
} from '../src/index.js';

export interface SimLocks {
  readonly net: SimNetwork;
  readonly managers: LockManager[];
  readonly clock: LockClock;
}

/** n managers over one simulated network (uniform delays 1–3 by default). */
export function simLocks(
  n: number,
  seed: number,
  options: Partial<Omit<LockManagerOptions, 'endpoint' | 'id' | 'n'>> & { registry?: Registry } = {},
): SimLocks {
  const net = new SimNetwork({ n, seed, delay: uniformDelay(1, 3) });
  const clock: LockClock = { now: () => net.now, setTimer: (d, fn) => net.schedule(d, fn) };
  const managers = Array.from({ length: n }, (_, id) =>
    createLockManager({ endpoint: net.endpoint(id), id, n, clock, ...options }),
  );
  return { net, managers, clock };
}

/** Holders per name, checked at every change. */
export class HolderCheck {
  readonly holders = new Map<string, { mode: string; id: number }[]>();
  readonly violations: string[] = [];
  maxShared = 0;
  grants = 0;

  constructor(readonly k = Number.POSITIVE_INFINITY) {}

  enter(id: number, lock: Lock): void {
    this.grants++;
    const list = this.holders.get(lock.name) ?? [];
    list.push({ mode: lock.mode, id });
    this.holders.set(lock.name, list);
    const exclusive = list.filter((h) => h.mode === 'exclusive').length;
    if (exclusive > 0 && list.length > 1) {
      this.violations.push(`${lock.name}: ${list.map((h) => `P${h.id}:${h.mode}`).join(', ')}`);
    }
    if (list.length > this.k)
      this.violations.push(`${lock.name}: ${list.length} shared holders > k = ${this.k}`);
    if (exclusive === 0) this.maxShared = Math.max(this.maxShared, list.length);
  }

  exit(id: number, lock: Lock): void {
    const list = this.holders.get(lock.name) ?? [];
    const i = list.findIndex((h) => h.id === id && h.mode === lock.mode);
    if (i >= 0) list.splice(i, 1);
    if (list.length === 0) this.holders.delete(lock.name);
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
