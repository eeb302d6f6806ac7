/**
 * Seeded crashes and restarts of a simulated cluster's processes (issue 27 §3). Every process
 * runs under a {@link DurableLayer} over its own `MemoryDisk`; a crash falls right after a
 * handler step of some process — holders and arbiters alike — drawn from the run's seed, and
 * the process restarts a seeded delay later: a new store opened in `recover` mode, the object
 * built by the factory from `ctx.recovered`, then `recover()`.
 *
 * - `loseUnsynced: true`: the crash comes before the step's commit (in the same instant, or
 *   within the commit's sync time), so the step's write is lost, its sends are dropped and the
 *   messages it handled are delivered again after the restart.
 * - `loseUnsynced: false`: the crash comes once everything the process staged is durable and
 *   sent (nothing is lost but the process's time).
 */
import {
  ConfigurationError,
  type CSObject,
  type DurableCSObject,
  isDurableCSObject,
  type JsonValue,
  type ProcessId,
} from '@critsec/core';
import { type MemoryDisk, memoryDisk, memoryStore } from '@critsec/store';
import type { Rng, SimNetwork } from '@critsec/transport-sim';
import { CS_RECORD, DurableLayer } from './durable-layer.js';

/** Crash and restart schedule of a simulated cluster (`createCluster({ crashes })`). */
export interface CrashOptions {
  /** Crashes in the run (each of a process that is up at the time). */
  readonly count: number;
  /** A crashed process restarts after a delay uniform in [min, max] time units (default [1, 10]). */
  readonly restartAfter?: readonly [number, number];
  /** Crash before the step's commit, losing its write (default true), or once it is durable. */
  readonly loseUnsynced?: boolean;
  /** One commit's sync takes a whole number of time units uniform in [min, max] (default [0, 2]). */
  readonly syncTime?: readonly [number, number];
  /**
   * The crash steps are drawn uniformly among the first `window` handler steps of the whole
   * cluster (default 20 · n); a step the run never reaches crashes nobody.
   */
  readonly window?: number;
}

/** What the crashes of a run did. */
export interface CrashStats {
  /** Crashes that happened. */
  crashes: number;
  /** Restarts whose `recover()` resolved. */
  recovered: number;
  /** Crashes that lost at least one step not yet durable (its write, its sends). */
  lostWrites: number;
  /** Steps lost in all. */
  lostSteps: number;
  /** Held sends dropped by crashes. */
  droppedSends: number;
  /** Virtual time of the last restart's recovery (time units), or `null`. */
  lastRecovery: number | null;
}

/** Raised into a call in flight when its process crashes: the workload counts it as cut. */
export class ProcessCrashedError extends Error {
  /** The crashed process. */
  readonly process: ProcessId;
  /** A call of `process` cut by its crash. */
  constructor(process: ProcessId) {
    super(`P${process} crashed while the call was in flight`);
    this.name = 'ProcessCrashedError';
    this.process = process;
  }
}

/** How the recovery builds and watches a process's object (the cluster's side). */
export interface RecoveryHost {
  /** The cluster's simulated network. */
  readonly net: SimNetwork;
  /** Number of processes. */
  readonly n: number;
  /** Builds process `id`'s object on `endpoint` from `recovered` (undefined: a first start) and wires it. */
  build(id: ProcessId, layer: DurableLayer, recovered: JsonValue | undefined): CSObject<unknown>;
  /** The crashed object is gone: stop listening to it. */
  unwire(id: ProcessId): void;
  /** `id` finished its recovery: the monitor follows its object's state again. */
  recovered(id: ProcessId): void;
  /** A recovery failed (`recover()` rejected). */
  failed(message: string): void;
}

const CLUSTER = 'sim';

/** The crash machinery of one cluster (see the module comment). */
export class CrashRecovery {
  /** What happened so far. */
  readonly stats: CrashStats = {
    crashes: 0,
    recovered: 0,
    lostWrites: 0,
    lostSteps: 0,
    droppedSends: 0,
    lastRecovery: null,
  };
  readonly #host: RecoveryHost;
  readonly #rng: Rng;
  readonly #restartAfter: readonly [number, number];
  readonly #syncTime: readonly [number, number];
  readonly #loseUnsynced: boolean;
  readonly #disks: MemoryDisk[];
  readonly #layers: DurableLayer[] = [];
  readonly #recovering: boolean[];
  readonly #cut: AbortController[];
  readonly #ready: (Promise<void> | undefined)[];
  readonly #readyResolve: ((() => void) | undefined)[];
  /** Global handler-step numbers that crash the process handling them, ascending. */
  readonly #plan: number[];
  #steps = 0;

  /** @throws ConfigurationError for bad options. */
  constructor(host: RecoveryHost, options: CrashOptions) {
    checkOptions(options);
    this.#host = host;
    const n = host.n;
    this.#rng = host.net.rng('crashes');
    this.#restartAfter = options.restartAfter ?? [1, 10];
    this.#syncTime = options.syncTime ?? [0, 2];
    this.#loseUnsynced = options.loseUnsynced ?? true;
    const window = options.window ?? 20 * n;
    this.#plan = Array.from({ length: options.count }, () => 1 + this.#rng.int(window)).sort((a, b) => a - b);
    this.#disks = Array.from({ length: n }, () => memoryDisk());
    this.#recovering = new Array<boolean>(n).fill(false);
    this.#cut = Array.from({ length: n }, () => new AbortController());
    this.#ready = new Array(n).fill(undefined);
    this.#readyResolve = new Array(n).fill(undefined);
    for (let i = 0; i < n; i++) host.net.ackAfterCommit(i);
  }

  /** Builds process `id`'s first incarnation (a fresh store). */
  start(id: ProcessId): CSObject<unknown> {
    const store = memoryStore(this.#disks[id]!, { cluster: CLUSTER, member: id, mode: 'create' });
    return this.#incarnation(
      id,
      new DurableLayer(this.#host.net, id, store, () => this.#drawSync()),
      undefined,
    );
  }

  /** The durable layer of `id`'s current incarnation. */
  layer(id: ProcessId): DurableLayer {
    return this.#layers[id]!;
  }

  /** True from `id`'s crash until its recovered object finished `recover()`. */
  recovering(id: ProcessId): boolean {
    return this.#recovering[id]! || this.#host.net.isCrashed(id);
  }

  /** Resolves once `id` is up and recovered; `undefined` when it is already. */
  ready(id: ProcessId): Promise<void> | undefined {
    return this.#ready[id];
  }

  /**
   * `call`, made by `id`'s current incarnation, or a rejection with {@link ProcessCrashedError}
   * once that incarnation crashes (after the restart's recovery, so the caller may go on).
   */
  guard<T>(id: ProcessId, call: () => Promise<T>): Promise<T> {
    const down = this.#ready[id];
    if (down !== undefined) return down.then(() => Promise.reject(new ProcessCrashedError(id)));
    const signal = this.#cut[id]!.signal;
    return new Promise<T>((resolve, reject) => {
      const onCrash = () => void this.#ready[id]?.then(() => reject(new ProcessCrashedError(id)));
      signal.addEventListener('abort', onCrash, { once: true });
      call().then(
        (v) => {
          signal.removeEventListener('abort', onCrash);
          if (!signal.aborted) resolve(v);
        },
        (e: unknown) => {
          signal.removeEventListener('abort', onCrash);
          if (!signal.aborted) reject(e);
        },
      );
    });
  }

  #incarnation(id: ProcessId, layer: DurableLayer, recovered: JsonValue | undefined): CSObject<unknown> {
    this.#layers[id] = layer;
    layer.onHandled = () => this.#handled(id);
    const cs = this.#host.build(id, layer, recovered);
    if (!isDurableCSObject(cs)) {
      throw new ConfigurationError(
        `crashes need durable CS objects (durableState(), recover(): DurableCSObject of @critsec/core); P${id}'s is not`,
      );
    }
    layer.attach(cs as DurableCSObject<unknown>);
    return cs;
  }

  #handled(id: ProcessId): void {
    const step = ++this.#steps;
    if (this.#plan.length === 0 || this.#plan[0] !== step) return;
    while (this.#plan[0] === step) this.#plan.shift();
    const layer = this.#layers[id]!;
    if (this.#loseUnsynced) this.#host.net.schedule(0, () => this.#crash(id, layer), `P${id} crash`);
    else layer.whenIdle(() => this.#crash(id, layer));
  }

  #crash(id: ProcessId, layer: DurableLayer): void {
    if (this.#layers[id] !== layer || this.#host.net.isCrashed(id)) return;
    const loss = layer.crash();
    this.#host.net.crash(id);
    this.#host.unwire(id);
    this.stats.crashes++;
    this.stats.lostSteps += loss.unsyncedSteps;
    this.stats.droppedSends += loss.droppedSends;
    if (loss.unsyncedSteps > 0) this.stats.lostWrites++;
    this.#ready[id] ??= new Promise<void>((resolve) => {
      this.#readyResolve[id] = resolve;
    });
    this.#cut[id]!.abort();
    this.#cut[id] = new AbortController();
    const [min, max] = this.#restartAfter;
    this.#host.net.schedule(min + this.#rng.next() * (max - min), () => this.#restart(id), `P${id} up`);
  }

  #restart(id: ProcessId): void {
    const disk = this.#disks[id]!;
    disk.restart();
    const store = memoryStore(disk, { cluster: CLUSTER, member: id, mode: 'recover' });
    const recovered = store.load().records.get(CS_RECORD)?.value;
    this.#host.net.restart(id);
    const layer = new DurableLayer(this.#host.net, id, store, () => this.#drawSync());
    this.#recovering[id] = true;
    const cs = this.#incarnation(id, layer, recovered) as DurableCSObject<unknown>;
    cs.recover().then(
      () => {
        // crashed again meanwhile (restarted or not): the next recovery resolves the wait
        if (this.#layers[id] !== layer || this.#host.net.isCrashed(id)) return;
        this.#recovering[id] = false;
        this.stats.recovered++;
        this.stats.lastRecovery = this.#host.net.now;
        this.#host.recovered(id);
        const resolve = this.#readyResolve[id];
        this.#ready[id] = undefined;
        this.#readyResolve[id] = undefined;
        resolve?.();
      },
      (err: unknown) => this.#host.failed(`P${id} recover() rejected: ${String(err)}`),
    );
  }

  #drawSync(): number {
    const [min, max] = this.#syncTime;
    return min + this.#rng.int(max - min + 1);
  }
}

function checkOptions(o: CrashOptions): void {
  const range = (r: readonly [number, number] | undefined, what: string) => {
    if (r !== undefined && !(Number.isFinite(r[0]) && r[0] >= 0 && r[1] >= r[0] && Number.isFinite(r[1])))
      throw new ConfigurationError(`crashes.${what} must be [min, max] with 0 ≤ min ≤ max, got ${String(r)}`);
  };
  if (!(Number.isSafeInteger(o.count) && o.count >= 0))
    throw new ConfigurationError(`crashes.count must be an integer ≥ 0, got ${String(o.count)}`);
  range(o.restartAfter, 'restartAfter');
  range(o.syncTime, 'syncTime');
  if (o.syncTime !== undefined && !(Number.isInteger(o.syncTime[0]) && Number.isInteger(o.syncTime[1])))
    throw new ConfigurationError('crashes.syncTime must be whole time units');
  if (o.window !== undefined && !(Number.isSafeInteger(o.window) && o.window >= 1))
    throw new ConfigurationError(`crashes.window must be an integer ≥ 1, got ${String(o.window)}`);
}
