import {
  assertSafeConfiguration,
  ConfigurationError,
  type CSFactory,
  type CSObject,
  type CSState,
  type Endpoint,
  type JsonValue,
  type ProblemSpec,
  type ProcessId,
} from '@critsec/core';
import { type DelayModel, SimNetwork, type SimNetworkOptions } from '@critsec/transport-sim';
import { MessageAttribution } from './attribution.js';
import { type CrashOptions, CrashRecovery } from './crash-recovery.js';
import { SafetyMonitor, type Violation } from './monitor.js';

/** Options of {@link createCluster}. */
export interface ClusterOptions<Req = void> {
  /** The algorithm: makes one CS object per process. */
  readonly factory: CSFactory<Req>;
  /** The problem whose safety the monitor checks. `spec.n` is the cluster size. */
  readonly spec: ProblemSpec;
  /** Initial configuration (default {@link defaultInitial}); must be safe for `spec`. */
  readonly initial?: readonly CSState[];
  /** Requests held by processes InCS initially (h-out-of-k units, groups). */
  readonly initialRequests?: readonly unknown[];
  /** Seed of the network and the workload (default 1). */
  readonly seed?: number;
  /** Delay model (default unit). */
  readonly delay?: DelayModel;
  /** Per-link delay overrides. */
  readonly linkDelay?: SimNetworkOptions['linkDelay'];
  /** `'timed'` (default) or `'controlled'` (the caller picks every event). */
  readonly mode?: 'timed' | 'controlled';
  /** Faults below a reliable session layer (drop/duplicate/reorder raw frames); timed mode only. */
  readonly faults?: SimNetworkOptions['faults'];
  /**
   * The simulator's failure detector (issue 28 §4; `SimNetworkOptions.suspectAfter`, time
   * units): with it, every object gets its endpoint's `suspicions` as `ctx.suspicions`. Default
   * off (no `ctx.suspicions`). Partitions: `cluster.net.partitions`.
   */
  readonly suspectAfter?: number;
  /** Keep FIFO (default true); `false` for negative tests only. */
  readonly fifo?: boolean;
  /** Record a JSON-lines trace (state changes included). */
  readonly trace?: SimNetworkOptions['trace'];
  /** Pass messages through JSON like a real wire (default false). */
  readonly serialize?: boolean;
  /**
   * Attribute every message to the invocation that caused it (through promise continuations and
   * message chains: a {@link MessageAttribution} with the `'context'` carrier wraps every
   * endpoint). Needed for per-pair message distributions under the concurrent workload; costs
   * some speed. Default false.
   */
  readonly attribution?: boolean;
  /**
   * Seeded crashes and restarts (issue 27; see `CrashOptions`): every process runs under a
   * durable layer over a simulated disk, and the factory's objects must be `DurableCSObject`s
   * that build from `ctx.recovered`. Timed mode. Default: no crash, no durable layer.
   */
  readonly crashes?: CrashOptions;
}

/**
 * The default initial configuration for a spec: the first `l` processes InCS for a global
 * (l,k)-CS, everybody OutCS otherwise.
 * @throws ConfigurationError for a local spec whose all-OutCS configuration is unsafe (give one).
 */
export function defaultInitial(spec: ProblemSpec): CSState[] {
  const states: CSState[] = Array.from({ length: spec.n }, (_, i) =>
    spec.kind === 'global' && i < spec.l ? 'InCS' : 'OutCS',
  );
  if (spec.kind === 'local' && spec.l.some((l) => l > 0)) {
    throw new ConfigurationError('local spec with some l_i > 0: give an explicit safe initial configuration');
  }
  return states;
}

/**
 * A cluster of CS objects on one simulated network, watched by a {@link SafetyMonitor}.
 * Build it with {@link createCluster}.
 */
export class SimCluster<Req = void> {
  /** The simulated network the objects talk over. */
  readonly net: SimNetwork;
  /** The CS object of each process, by id (after a restart: its recovered object). */
  readonly objects: CSObject<Req>[] = [];
  /** The crash machinery, when the cluster was made with `crashes`. */
  readonly crash: CrashRecovery | undefined;
  /** Recoveries that failed (`recover()` rejected), as messages. */
  readonly recoveryFailures: string[] = [];
  readonly #factory: CSFactory<Req>;
  readonly #suspectAfter: number | undefined;
  readonly #unwire: (() => void)[] = [];
  /** The request each process last entered the CS with (what a process restarted InCS holds). */
  readonly #held: unknown[] = [];
  /** The safety monitor fed by every object's `statechange`. */
  readonly monitor: SafetyMonitor;
  /** The problem the monitor checks. */
  readonly spec: ProblemSpec;
  /** The run's seed (network delays; the workload forks from it). */
  readonly seed: number;
  /** The initial configuration, one state per process. */
  readonly initial: readonly CSState[];
  /** `error` events the objects reported (dropped messages, listener failures). */
  readonly errors: {
    /** The object's process. */
    process: number;
    /** The error it reported. */
    error: Error;
  }[] = [];
  /** The first safety violation, once one happened (the network is stopped then). */
  firstViolation: Violation | null = null;
  /**
   * The message attribution (when `attribution: true`): keys are the workload's record indices,
   * carried by the network's causal context; every object's endpoint is wrapped by it.
   */
  readonly attribution: MessageAttribution<number> | undefined;

  /** Builds the cluster (as {@link createCluster}). @throws ConfigurationError for an initial configuration of the wrong length or an unsafe one. */
  constructor(options: ClusterOptions<Req>) {
    const spec = options.spec;
    const n = spec.n;
    const initial = options.initial ?? defaultInitial(spec);
    if (initial.length !== n) {
      throw new ConfigurationError(
        `cluster: initial configuration has ${initial.length} states, spec has n = ${n}`,
      );
    }
    assertSafeConfiguration(spec, initial, options.initialRequests);
    this.spec = spec;
    this.seed = options.seed ?? 1;
    this.initial = Object.freeze([...initial]);
    const attribution = options.attribution
      ? new MessageAttribution<number>({ carrier: 'context' })
      : undefined;
    this.attribution = attribution;
    this.net = new SimNetwork({
      n,
      seed: this.seed,
      delay: options.delay,
      linkDelay: options.linkDelay,
      mode: options.mode,
      fifo: options.fifo,
      faults: options.faults,
      ...(options.suspectAfter === undefined ? {} : { suspectAfter: options.suspectAfter }),
      trace: options.trace,
      serialize: options.serialize,
      context: attribution?.causalContext(),
    });
    this.monitor = new SafetyMonitor(spec, initial, options.initialRequests);
    this.#factory = options.factory;
    this.#suspectAfter = options.suspectAfter;
    const crashes = options.crashes;
    if (crashes !== undefined && options.mode === 'controlled')
      throw new ConfigurationError('cluster: crashes need the timed mode');
    this.crash =
      crashes === undefined
        ? undefined
        : new CrashRecovery(
            {
              net: this.net,
              n,
              build: (id, layer, recovered) =>
                this.#build(id, layer.endpoint(this.net.endpoint(id)), recovered),
              unwire: (id) => this.#unwire[id]?.(),
              recovered: (id) => this.#follow(id, this.objects[id]!.state),
              failed: (message) => this.recoveryFailures.push(message),
            },
            crashes,
          );
    for (let i = 0; i < n; i++) {
      if (this.crash !== undefined) this.crash.start(i);
      else this.#build(i, this.net.endpoint(i), undefined);
    }
  }

  /** Makes process `id`'s object (a first start, or a restart from `recovered`) and wires it. */
  #build(id: ProcessId, root: Endpoint, recovered: JsonValue | undefined): CSObject<Req> {
    const attribution = this.attribution;
    const endpoint = attribution === undefined ? root : attribution.endpoint(root);
    const n = this.n;
    const suspicions = this.#suspectAfter === undefined ? undefined : this.net.endpoint(id).suspicions;
    const cs = this.#factory({
      id,
      n,
      endpoint,
      initial: this.initial,
      ...(recovered === undefined ? {} : { recovered }),
      ...(suspicions === undefined ? {} : { suspicions }),
    });
    if (cs.id !== id)
      throw new ConfigurationError(`factory made an object with id ${cs.id} for process ${id}`);
    const first = this.objects[id] === undefined;
    if (first && cs.state !== this.initial[id]) {
      throw new ConfigurationError(
        `factory made P${id} ${cs.state}, but the initial configuration says ${this.initial[id]}`,
      );
    }
    const offState = cs.on('statechange', (s) => {
      // a crashed or recovering process that was InCS stays InCS until its recovered object leaves
      if (s === 'OutCS' && this.crash?.recovering(id)) return;
      this.#follow(id, s);
    });
    const offError = cs.on('error', (error) => this.errors.push({ process: id, error }));
    this.#unwire[id] = () => {
      offState();
      offError();
    };
    this.objects[id] = cs;
    if (!first && cs.state === 'InCS') {
      // restarted InCS: its last committed step is the CS it last entered (its exit was lost), not
      // the entry the workload may have begun since, which set the monitor's request
      this.monitor.setRequest(id, this.#held[id], true);
      this.#follow(id, 'InCS');
    }
    return cs;
  }

  /** The monitor (and the trace) follow process `id` into state `s`, when it differs. */
  #follow(id: ProcessId, s: CSState): void {
    if (this.crash !== undefined && this.monitor.states[id] === s) return;
    this.net.note({ p: id, s });
    if (s === 'InCS') this.#held[id] = this.monitor.requests[id];
    const v = this.monitor.change(id, s, this.net.now);
    if (v !== null && this.firstViolation === null) {
      this.firstViolation = v;
      this.net.stop();
    }
  }

  /** Number of processes. */
  get n(): number {
    return this.spec.n;
  }

  /** Closes every object, then the network, then disposes of the attribution. */
  async close(): Promise<void> {
    await Promise.allSettled(this.objects.map((o) => o.close()));
    this.net.close();
    this.attribution?.dispose();
  }
}

/** Builds a {@link SimCluster}: validates the configuration, makes the network and the objects. */
export function createCluster<Req = void>(options: ClusterOptions<Req>): SimCluster<Req> {
  return new SimCluster(options);
}
