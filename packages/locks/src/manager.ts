/**
 * `createLockManager`: named locks over one membership, in the Web Locks API's shape (issue 29).
 * Per name, one protocol instance on its own channel (`instances.ts`); per name and member, one
 * line of local requests (`local-queue.ts`), whose first runs the protocol's entry and exit.
 */
import {
  type CSFactory,
  type CSObject,
  isAbortError,
  monotonicClock,
  type ProcessId,
  type ProtocolClock,
  type Suspicions,
  type Tenure,
} from '@critsec/core';
import { hOutOfK } from '@critsec/h-out-of-k';
import { maekawa } from '@critsec/mutex';
import { Registry } from 'prom-client';
import { Control } from './control.js';
import { LockManagerClosedError, LockOptionsError, LockTimeoutError } from './errors.js';
import { arbiterFree, Instances, type LiveInstance } from './instances.js';
import { LocalQueue } from './local-queue.js';
import { LockMetrics } from './metrics.js';
import { channelOf, type NameKind } from './names.js';
import { type CheckedRequest, checkManagerOptions, checkRequest, type ManagerSettings } from './options.js';
import { probedHKQuorum, probedQuorum } from './reselect.js';
import { tenureOf } from './tenure.js';
import type { Lock, LockInfo, LockManager, LockManagerOptions, LockMode, LockSnapshot } from './types.js';

/** A local request in progress (in line, entering, or held): what `query()` reports. */
interface LocalRequest {
  readonly name: string;
  readonly mode: LockMode;
  held: boolean;
  token: number | undefined;
}

const NEVER = new AbortController().signal;

class Manager implements LockManager {
  readonly id: ProcessId;
  readonly registry: Registry;
  readonly #s: ManagerSettings;
  readonly #clock: ProtocolClock;
  readonly #metrics: LockMetrics;
  readonly #instances: Instances;
  readonly #control: Control;
  readonly #lines = new Map<string, LocalQueue>();
  readonly #requests = new Set<LocalRequest>();
  readonly #offHook: () => void;
  readonly #suspicions: Suspicions;
  #closed = false;
  #sweeping = false;

  constructor(o: LockManagerOptions) {
    this.#s = checkManagerOptions(o);
    this.id = o.id;
    this.registry = o.registry ?? new Registry();
    this.#clock = o.clock ?? monotonicClock();
    this.#suspicions = o.endpoint.suspicions;
    this.#metrics = new LockMetrics(this.registry, o.id);
    this.#metrics.peers(o.n, o.id, o.endpoint.suspicions);
    const onError = o.onError ?? (() => {});
    const s = this.#s;
    const endpoint = o.endpoint.channel(s.channel);
    let hk: CSFactory<number> | undefined;
    const shared: CSFactory<unknown> = (ctx) => {
      hk ??= hOutOfK({ k: s.k, arbiter: s.arbiter(), ...s.grants, reselect: s.reselect });
      return hk(ctx) as CSObject<unknown>;
    };
    this.#instances = new Instances({
      endpoint,
      id: o.id,
      n: o.n,
      factories: {
        x: maekawa({ coterie: s.coterie, ...s.grants, reselect: s.reselect }) as CSFactory<unknown>,
        s: shared,
      },
      clock: this.#clock,
      kindOf: (name) => this.#kindOf(name),
      onSend: (type) => this.#metrics.sent(type),
      onError,
      inUse: (key) => this.#lines.get(key)?.busy === true,
      suspicions: o.endpoint.suspicions,
    });
    this.#control = new Control(
      endpoint.channel('ctl'),
      { free: (kind, name, h) => this.#free(kind, name, h), state: () => this.#state() },
      onError,
      o.endpoint.suspicions,
    );
    this.#offHook = o.endpoint.onUnopened(endpoint.path, (rest, from) => {
      if (this.#closed) return;
      this.#instances.unopened(rest, from);
      this.#afterBuild();
    });
  }

  get live(): number {
    return this.#instances.live.size;
  }

  get kept(): number {
    return this.#instances.kept.size;
  }

  request<T>(name: string, a: unknown, b?: unknown): Promise<T> {
    let r: CheckedRequest;
    try {
      r = checkRequest(name, a, b);
      if (r.mode === 'shared' && this.#kindOf(r.name) === 'x') {
        throw new LockOptionsError(
          `request('${r.name}', { mode: 'shared' }): '${r.name}' is exclusive-only — list it in createLockManager({ shared }) on every member`,
        );
      }
      if (this.#closed) throw new LockManagerClosedError(`request('${r.name}') after close()`);
    } catch (err) {
      return Promise.reject(err);
    }
    return (r.ifAvailable ? this.#tryRequest(r) : this.#waitRequest(r)) as Promise<T>;
  }

  async query(options: { readonly signal?: AbortSignal } = {}): Promise<LockSnapshot> {
    if (this.#closed) throw new LockManagerClosedError('query() after close()');
    const { answers, unreachable } = await this.#control.query(options.signal);
    const held: LockInfo[] = [];
    const pending: LockInfo[] = [];
    for (const [holder, a] of answers) {
      for (const [name, mode, token] of a.held)
        held.push({ name, mode, holder, token: token < 0 ? undefined : token });
      for (const [name, mode] of a.pending) pending.push({ name, mode, holder, token: undefined });
    }
    const order = (x: LockInfo, y: LockInfo) =>
      x.name < y.name ? -1 : x.name > y.name ? 1 : x.holder - y.holder;
    return { held: held.sort(order), pending: pending.sort(order), unreachable };
  }

  reclaimIdle(): number {
    const names = this.#instances.reclaimIdle();
    for (const key of names) if (this.#lines.get(key)?.busy === false) this.#lines.delete(key);
    this.#metrics.reclaimed(names.map((k) => k.slice(2)));
    this.#metrics.instances(this.live);
    return names.length;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#offHook();
    const err = new LockManagerClosedError('the lock manager was closed');
    for (const line of this.#lines.values()) line.failAll(err);
    this.#control.close();
    this.#metrics.close();
    await this.#instances.close();
  }

  #kindOf(name: string): NameKind {
    return this.#s.isShared(name) ? 's' : 'x';
  }

  /** The units a request takes (h-out-of-k), `undefined` for Maekawa. */
  #units(kind: NameKind, mode: LockMode): number | undefined {
    return kind === 'x' ? undefined : mode === 'shared' ? 1 : this.#s.k;
  }

  #line(key: string): LocalQueue {
    let line = this.#lines.get(key);
    if (line === undefined) {
      line = new LocalQueue();
      this.#lines.set(key, line);
    }
    return line;
  }

  /** Runs the normal request: in line, then the protocol's entry, under `signal` and `timeout`. */
  async #waitRequest(r: CheckedRequest): Promise<unknown> {
    const kind = this.#kindOf(r.name);
    const key = channelOf(kind, r.name);
    const line = this.#line(key);
    const mine: LocalRequest = { name: r.name, mode: r.mode, held: false, token: undefined };
    this.#requests.add(mine);
    const started = this.#clock.now();
    const timer = r.timeout === undefined ? undefined : new AbortController();
    const cancel =
      timer && this.#clock.setTimer(r.timeout!, () => timer.abort(new LockTimeoutError(r.name, r.timeout!)));
    const signal =
      timer === undefined
        ? r.signal
        : r.signal === undefined
          ? timer.signal
          : AbortSignal.any([r.signal, timer.signal]);
    let inst: LiveInstance;
    try {
      await line.take(signal);
      try {
        if (this.#closed) throw new LockManagerClosedError(`request('${r.name}'): the manager was closed`);
        inst = this.#instance(kind, r.name);
        await enter(inst.cs, this.#units(kind, r.mode), signal);
      } catch (err) {
        line.give();
        throw err;
      }
    } catch (err) {
      this.#requests.delete(mine);
      if (timer?.signal.aborted && isAbortError(err)) {
        this.#metrics.timedOut(r.mode);
        throw timer.signal.reason;
      }
      throw err;
    } finally {
      cancel?.();
    }
    return this.#hold(r, inst, line, mine, this.#clock.now() - started);
  }

  /** `ifAvailable`: `null` at once when this member's line is busy or a probe of the quorum finds it taken. */
  async #tryRequest(r: CheckedRequest): Promise<unknown> {
    const kind = this.#kindOf(r.name);
    const key = channelOf(kind, r.name);
    const line = this.#line(key);
    if (line.busy) return this.#unavailable(r);
    const mine: LocalRequest = { name: r.name, mode: r.mode, held: false, token: undefined };
    this.#requests.add(mine);
    await line.take(undefined);
    const started = this.#clock.now();
    const h = this.#units(kind, r.mode);
    let inst: LiveInstance;
    try {
      const quorum =
        kind === 'x'
          ? probedQuorum(this.#s.coterie, this.id, this.#s.reselect, this.#suspicions)
          : probedHKQuorum(this.#s.arbiter(), this.id, h!, this.#s.reselect, this.#suspicions);
      if (!(await this.#control.probe(quorum, kind, r.name, h ?? 1))) {
        line.give();
        this.#requests.delete(mine);
        return this.#unavailable(r);
      }
      if (this.#closed) throw new LockManagerClosedError(`request('${r.name}'): the manager was closed`);
      inst = this.#instance(kind, r.name);
      if (!(await this.#enterUnlessRefused(key, inst, h))) {
        line.give();
        this.#requests.delete(mine);
        return this.#unavailable(r);
      }
    } catch (err) {
      line.give();
      this.#requests.delete(mine);
      throw err;
    }
    return this.#hold(r, inst, line, mine, this.#clock.now() - started);
  }

  /**
   * The entry of an `ifAvailable` request whose probe found the quorum free: a Maekawa entry is
   * withdrawn (as an abort: partial grants given back) as soon as an arbiter answers FAILED — a
   * request that raced in within the probe's round trip has priority there. False when withdrawn.
   */
  async #enterUnlessRefused(key: string, inst: LiveInstance, h: number | undefined): Promise<boolean> {
    if (inst.kind === 's') {
      await enter(inst.cs, h, undefined);
      return true;
    }
    const refused = new AbortController();
    const unwatch = this.#instances.watch(key, () => {
      const d = inst.cs.durableState() as { requester: { failed: unknown[] } };
      if (d.requester.failed.length > 0 && inst.cs.state === 'OutCS') refused.abort();
    });
    try {
      await enter(inst.cs, h, refused.signal);
      return true;
    } catch (err) {
      if (refused.signal.aborted && isAbortError(err)) return false;
      throw err;
    } finally {
      unwatch();
    }
  }

  #unavailable(r: CheckedRequest): Promise<unknown> {
    this.#metrics.unavailable(r.mode);
    return Promise.resolve(r.callback(null));
  }

  /** Runs the callback while held; exits when it settles; gives the line on. */
  async #hold(r: CheckedRequest, inst: LiveInstance, line: LocalQueue, mine: LocalRequest, waited: number) {
    const tenure = tenureOf(inst.cs as CSObject<unknown>);
    mine.held = true;
    mine.token = tenure?.token;
    this.#metrics.acquired(r.mode, r.name, waited);
    // an expired grant: the tenure's signal fired (its deadline passed) before the release
    const expired = () => this.#metrics.expired(r.mode);
    if (tenure?.signal.aborted === true) expired();
    else tenure?.signal.addEventListener('abort', expired, { once: true });
    try {
      return await r.callback(lockOf(r.name, r.mode, tenure));
    } finally {
      tenure?.signal.removeEventListener('abort', expired);
      this.#requests.delete(mine);
      this.#metrics.released(r.name);
      try {
        // after close() the instance is closed too: nothing to exit (the callback's result stands)
        if (!this.#closed && inst.cs.state === 'InCS') await inst.cs.exit();
      } finally {
        line.give();
      }
    }
  }

  /** The live instance of a name, reclaiming idle ones first when there are too many. */
  #instance(kind: NameKind, name: string): LiveInstance {
    const inst = this.#instances.get(kind, name);
    this.#afterBuild();
    return inst;
  }

  /**
   * Past `maxLiveNames`, sweeps idle instances — on a microtask, never inside the hook that built
   * one: the message that built it is handed over first (swept before, it would find its channel
   * closed again and be dropped).
   */
  #afterBuild(): void {
    this.#metrics.instances(this.live);
    if (this.live <= this.#s.maxLiveNames || this.#sweeping) return;
    this.#sweeping = true;
    queueMicrotask(() => {
      this.#sweeping = false;
      if (!this.#closed) this.reclaimIdle();
    });
  }

  #free(kind: NameKind, name: string, h: number): boolean {
    const inst = this.#instances.live.get(channelOf(kind, name));
    return inst === undefined || arbiterFree(kind, inst.cs.durableState(), h);
  }

  #state(): { held: [string, LockMode, number][]; pending: [string, LockMode][] } {
    const held: [string, LockMode, number][] = [];
    const pending: [string, LockMode][] = [];
    for (const q of this.#requests) {
      if (q.held) held.push([q.name, q.mode, q.token ?? -1]);
      else pending.push([q.name, q.mode]);
    }
    return { held, pending };
  }
}

/** The protocol's entry: Maekawa takes no request, h-out-of-k the units. */
function enter(
  cs: CSObject<unknown>,
  units: number | undefined,
  signal: AbortSignal | undefined,
): Promise<void> {
  const opts = { signal };
  return units === undefined ? (cs as CSObject).entry(opts) : (cs as CSObject<number>).entry(units, opts);
}

function lockOf(name: string, mode: LockMode, tenure: Tenure | undefined): Lock {
  return {
    name,
    mode,
    token: tenure?.token,
    signal: tenure?.signal ?? NEVER,
    remaining: () => (tenure === undefined ? Number.POSITIVE_INFINITY : tenure.remaining()),
  };
}

/**
 * Named distributed locks over one membership (issue 29), in the shape of the Web Locks API:
 * `request(name, [options,] callback)`, `query()`. Build one per member, over that member's root
 * endpoint (any transport); every member must be given the same `n`, `coterie`, `k`, `arbiter`,
 * `shared`, `channel`, `fencing`, `ttl`, `driftMargin` and `reselect`.
 *
 * - **Exclusive-only names** run Maekawa (`@critsec/mutex`) over `coterie` (majority by default):
 *   3·|Q| messages per uncontended lock. **Shared names** (listed in `shared`) run h-out-of-k
 *   (`@critsec/h-out-of-k`) with k units: `shared` takes 1 unit, `exclusive` all k — at most k
 *   shared holders together, an exclusive holder alone.
 * - Each name has its own protocol instance on its own channel, built on demand at every member
 *   (a local request, or the first message for it), reclaimed when idle (`reclaimIdle()`, or
 *   automatically past `maxLiveNames`), rebuilt from its kept durable state.
 * - A member's requests for one name queue locally in arrival order and enter one at a time.
 * - With `reselect` (issue 28 §4), a request whose quorum holds a suspected member moves to a
 *   quorum avoiding it — of the coterie's family for an exclusive-only name, of the (h,k)-arbiter's
 *   `Q_{h,k}` for a shared one: safety unconditional, liveness while such a quorum is alive (see
 *   {@link LockManagerOptions.reselect}).
 *
 * @throws LockOptionsError for bad options (see {@link LockManagerOptions}).
 */
export function createLockManager(options: LockManagerOptions): LockManager {
  return new Manager(options);
}
