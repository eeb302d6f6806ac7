/**
 * The per-name protocol instances of one member (issue 29): created on demand — by a local
 * request, or when the first message for the name arrives (the root endpoint's `onUnopened`
 * hook) — and reclaimed when idle.
 *
 * **Idle** means: this member's own process neither holds nor waits (OutCS, no call in flight,
 * no local request in line) and its arbiter role holds nothing for anybody (Maekawa: no lock
 * granted, empty queue; h-out-of-k: all k units free, empty `Que`), nothing set aside. An idle
 * instance is closed and its `durableState()` (issue 27's crash-recovery state: clocks, request
 * tags, `done(p)`) kept as a JSON string; the next message or request for the name rebuilds the
 * instance from it (`ProcessContext.recovered`), exactly as a restart after a crash would, with
 * nothing lost: the session layer below the channels keeps every message, and a message that
 * arrives for the closed channel reopens it through the hook before it is handled.
 */
import type {
  CSFactory,
  CSObject,
  DurableCSObject,
  Endpoint,
  JsonValue,
  ProcessId,
  ProtocolClock,
  Suspicions,
} from '@critsec/core';
import { isDurableCSObject } from '@critsec/core';
import type { HOutOfKDurableState } from '@critsec/h-out-of-k';
import type { MaekawaDurableState } from '@critsec/mutex';
import { channelOf, type NameKind, parseChannel } from './names.js';

/** A live instance: the CS object of one name at this member. */
export interface LiveInstance {
  /** The lock's name. */
  readonly name: string;
  /** Its protocol. */
  readonly kind: NameKind;
  /** The protocol's CS object (Maekawa: no request; h-out-of-k: the units). */
  readonly cs: DurableCSObject<unknown>;
}

/** What {@link Instances} is built with. */
export interface InstancesOptions {
  /** The manager's channel (its prefix); each name is a child channel of it. */
  readonly endpoint: Endpoint;
  /** This member. */
  readonly id: ProcessId;
  /** The membership's size. */
  readonly n: number;
  /** The factory of each kind (Maekawa for `x`, h-out-of-k for `s`). */
  readonly factories: Readonly<Record<NameKind, CSFactory<unknown>>>;
  /** The kind this member gives a name (the `shared` option). */
  readonly kindOf: (name: string) => NameKind;
  /** Called for each message an instance sends (metrics). */
  readonly onSend: (type: string) => void;
  /** A problem that did not stop the manager (a protocol error, a refused channel). */
  readonly onError: (err: Error) => void;
  /** True while the manager has a local request for the instance's name in line. */
  readonly inUse: (key: string) => boolean;
  /** The membership's failure detector (the root endpoint's), handed to every instance (issue 28's reselection). */
  readonly suspicions?: Suspicions | undefined;
  /** The clock every instance gets (`ProcessContext.clock`: time-bounded grants, issue 28). */
  readonly clock?: ProtocolClock | undefined;
}

/** This member's instances: live ones by channel key, and the kept states of reclaimed ones. */
export class Instances {
  readonly live = new Map<string, LiveInstance>();
  /** `durableState()` of reclaimed idle instances, JSON, by channel key. */
  readonly kept = new Map<string, string>();
  readonly #initial: 'OutCS'[];
  /** Called after each message an instance handled, by channel key (`watch`). */
  readonly #watchers = new Map<string, () => void>();
  readonly #options: InstancesOptions;

  constructor(options: InstancesOptions) {
    this.#options = options;
    this.#initial = new Array<'OutCS'>(options.n).fill('OutCS');
  }

  /** The live instance of `name` (of kind `kind`), built (or rebuilt from its kept state) if need be. */
  get(kind: NameKind, name: string): LiveInstance {
    const key = channelOf(kind, name);
    return this.live.get(key) ?? this.#build(key, kind, name);
  }

  /** The `onUnopened` hook: a message arrived for a channel nobody listens on. */
  unopened(rest: string, from: ProcessId): void {
    const parsed = parseChannel(rest);
    if (parsed === undefined || this.live.has(rest)) return;
    if (this.#options.kindOf(parsed.name) !== parsed.kind) {
      this.#options.onError(
        new Error(
          `P${this.#options.id}: P${from} runs lock '${parsed.name}' as ${parsed.kind === 's' ? 'shared' : 'exclusive-only'}, ` +
            'this member does not (the `shared` option must be the same on every member); its messages are not handled',
        ),
      );
      return;
    }
    this.get(parsed.kind, parsed.name);
  }

  /** Calls `fn` after each message the instance of `key` handles, until the returned function is called. */
  watch(key: string, fn: () => void): () => void {
    this.#watchers.set(key, fn);
    return () => {
      if (this.#watchers.get(key) === fn) this.#watchers.delete(key);
    };
  }

  /** True when the instance is idle (see the module comment). */
  idle(key: string, inst: LiveInstance): boolean {
    if (inst.cs.pending !== null || inst.cs.state !== 'OutCS' || this.#options.inUse(key)) return false;
    return isIdleState(inst.kind, inst.cs.durableState());
  }

  /** Reclaims every idle instance; returns their channel keys. */
  reclaimIdle(): string[] {
    const keys: string[] = [];
    for (const [key, inst] of [...this.live]) {
      if (!this.idle(key, inst)) continue;
      this.kept.set(key, JSON.stringify(inst.cs.durableState()));
      this.live.delete(key);
      void inst.cs.close();
      keys.push(key);
    }
    return keys;
  }

  /** Closes every live instance. */
  async close(): Promise<void> {
    const all = [...this.live.values()];
    this.live.clear();
    await Promise.all(all.map((i) => i.cs.close()));
  }

  #build(key: string, kind: NameKind, name: string): LiveInstance {
    const o = this.#options;
    const kept = this.kept.get(key);
    const recovered = kept === undefined ? undefined : (JSON.parse(kept) as JsonValue);
    const endpoint = counting(o.endpoint.channel(key), o.onSend, () => this.#watchers.get(key)?.());
    const cs = o.factories[kind]({
      id: o.id,
      n: o.n,
      endpoint,
      initial: this.#initial,
      recovered,
      suspicions: o.suspicions,
      ...(o.clock === undefined ? {} : { clock: o.clock }),
    });
    if (!isDurableCSObject(cs as CSObject<unknown>)) {
      throw new Error(
        `lock '${name}': the ${kind} protocol's objects are not durable (durableState) — cannot reclaim them`,
      );
    }
    cs.on('error', (err) => o.onError(err));
    this.kept.delete(key);
    const inst: LiveInstance = { name, kind, cs: cs as DurableCSObject<unknown> };
    this.live.set(key, inst);
    return inst;
  }
}

/** True when a durable state has nothing held, asked for or queued (see the module comment). */
function isIdleState(kind: NameKind, d: JsonValue): boolean {
  if (kind === 'x') {
    const m = d as MaekawaDurableState;
    return (
      m.state === 'OutCS' &&
      m.requester.request === -1 &&
      !m.requester.waiting &&
      m.arbiter.grantedTo === -1 &&
      m.arbiter.queue.length === 0 &&
      m.arbiter.aside.length === 0
    );
  }
  const h = d as HOutOfKDurableState;
  return (
    h.state === 'OutCS' &&
    h.requester.request === -1 &&
    !h.requester.waiting &&
    h.arbiter.x === h.k &&
    h.arbiter.Que.length === 0 &&
    h.arbiter.aside.length === 0 &&
    h.arbiter.suspect.length === 0
  );
}

/**
 * True when this member's arbiter for the name would grant `units` at once (the `ifAvailable`
 * probe): Maekawa — no lock granted, empty queue; h-out-of-k — no request waiting or cancelled in
 * `Que` and at least `units` free. An instance that is not live is idle, hence free.
 */
export function arbiterFree(kind: NameKind, d: JsonValue, units: number): boolean {
  if (kind === 'x') {
    const m = d as MaekawaDurableState;
    return m.arbiter.grantedTo === -1 && m.arbiter.queue.length === 0;
  }
  const h = d as HOutOfKDurableState;
  return h.arbiter.x >= units && h.arbiter.Que.every((e) => e[3] === 'ok');
}

/** `ep` with every `send` counted by the message's `type`, and `handled` called after each message handled. */
function counting(ep: Endpoint, onSend: (type: string) => void, handled: () => void): Endpoint {
  return {
    get self() {
      return ep.self;
    },
    get peers() {
      return ep.peers;
    },
    get path() {
      return ep.path;
    },
    send(to, msg) {
      ep.send(to, msg);
      onSend(msg.type);
    },
    onMessage: (fn) =>
      ep.onMessage((from, msg) => {
        fn(from, msg);
        handled();
      }),
    channel: (name) => ep.channel(name),
  };
}
