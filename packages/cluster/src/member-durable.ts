/**
 * The durable layer of a real member (issue 27 §1; the real-network twin of the simulator's
 * `DurableLayer` of `@critsec/harness`): with a configuration's `durability`, member `id` keeps
 * its protocol state in the LMDB store `<dir>/member-<id>.lmdb` (`@critsec/store`) as a
 * **transactional outbox**.
 *
 * - A **step** is anything the member does through its endpoint (a message handled, a message
 *   sent — a call begun or settled sends) or a state change of its CS object. After the steps of
 *   one event-loop turn (`setImmediate`), the layer stages, in one transaction, the CS object's
 *   `durableState()` (record `cs`), the transport's state — every session, with the messages the
 *   turn sent still unacknowledged in it, and the messages to itself not yet handled (record
 *   `transport`) — and the member runtime's own (record `member`: its barriers), and commits
 *   (the store's group commit: one synced transaction per turn).
 * - The transport withholds the data frames of those messages until the commit resolves, and
 *   acknowledges the frames the turn received only then (`onPeerRestart: 'resume'` of
 *   `@critsec/transport-tcp`): a crash before the commit loses the turn and everything it
 *   caused, and the peers resend what it had received.
 * - A commit that rejects (an I/O error) fails the member: nothing that depends on it leaves.
 *
 * A restarted member (`--recover`) loads the three records, rebuilds its transport from the
 * `transport` record (same session ids: its peers resume, nothing lost or duplicated) and its
 * CS object from `cs` (`ProcessContext.recovered`), then calls `recover()`.
 */
import { mkdirSync } from 'node:fs';
import {
  ConfigurationError,
  type CSObject,
  type DurableCSObject,
  type Endpoint,
  isDurableCSObject,
  type JsonValue,
  type Message,
  type ProcessId,
} from '@critsec/core';
import { lmdbStore, type ProtocolStore, StoreError } from '@critsec/store';
import type { TcpDurability } from '@critsec/transport-tcp';
import type { LoadedClusterConfig } from './config-cluster.js';
import { memberStorePath } from './config-durability.js';

/** The records a durable member keeps (see the module comment). */
const RECORD = { cs: 'cs', transport: 'transport', member: 'member' } as const;

/** What a member restarted with `--recover` found in its store. */
export interface MemberRecovered {
  /** The CS object's committed state (`ProcessContext.recovered`); undefined if never committed. */
  readonly cs: JsonValue | undefined;
  /** The transport's committed state (`state` of `tcpTransport`); undefined if never committed. */
  readonly transport: JsonValue | undefined;
  /** The member runtime's committed state (its barriers); undefined if never committed. */
  readonly member: JsonValue | undefined;
}

/** The name a member's store is bound to: the cluster's members and addresses (a store of another cluster is refused). */
function clusterName(loaded: LoadedClusterConfig): string {
  const { processes } = loaded.config;
  return `critsec ${processes.map((p) => `${p.id}@${p.host}:${p.port}`).join(' ')}`;
}

/**
 * Opens member `id`'s store: `mode: 'create'` on a first start, `'recover'` with `--recover`
 * (then its committed records are returned).
 * @throws StoreError `missing` (no store on `--recover`), `exists` (a store without `--recover`)
 *   or `foreign` (another member's or cluster's store), each naming the way out; `io` when the
 *   store cannot be opened.
 */
export async function openMemberStore(
  loaded: LoadedClusterConfig,
  id: ProcessId,
  recover: boolean,
): Promise<{ store: ProtocolStore; recovered: MemberRecovered | undefined }> {
  const dir = loaded.resolve(loaded.config.durability!.dir);
  mkdirSync(dir, { recursive: true });
  const path = memberStorePath(dir, id);
  let store: ProtocolStore;
  try {
    store = await lmdbStore(path, {
      cluster: clusterName(loaded),
      member: id,
      mode: recover ? 'recover' : 'create',
    });
  } catch (err) {
    if (!(err instanceof StoreError)) throw err;
    const way =
      err.reason === 'exists'
        ? `; restart member ${id} with --recover, or remove ${path} for a first start of the whole cluster`
        : err.reason === 'missing'
          ? `; a member whose store is lost must not rejoin as new (it would forget the grants it gave): stop the cluster and start it again without --recover`
          : '';
    throw new StoreError(err.reason, `member ${id}: ${err.message}${way}`, { cause: err });
  }
  if (!recover) return { store, recovered: undefined };
  const { records } = store.load();
  return {
    store,
    recovered: {
      cs: records.get(RECORD.cs)?.value,
      transport: records.get(RECORD.transport)?.value,
      member: records.get(RECORD.member)?.value,
    },
  };
}

/**
 * The CS object a durable member built, checked against the crash-recovery contract.
 * @throws ConfigurationError when the algorithm's object is not a `DurableCSObject`.
 */
export function durableObject(cs: CSObject<unknown>, algorithm: string): DurableCSObject<unknown> {
  if (!isDurableCSObject(cs)) {
    throw new ConfigurationError(
      `cluster config: durability needs an algorithm whose objects implement the crash-recovery contract (DurableCSObject of @critsec/core), and ${algorithm}'s do not`,
    );
  }
  return cs;
}

/**
 * One incarnation of a durable member: build it over the store and the transport's durable side,
 * build every channel on {@link MemberDurableLayer.endpoint}, {@link MemberDurableLayer.attach}
 * the CS object and the runtime's state.
 */
export class MemberDurableLayer {
  readonly #id: ProcessId;
  readonly #store: ProtocolStore;
  readonly #transport: TcpDurability;
  #cs: DurableCSObject<unknown> | undefined;
  #member: () => JsonValue = () => null;
  #scheduled = false;
  #closed = false;
  #last: Promise<unknown> = Promise.resolve();
  #fail: (err: Error) => void = () => {};
  /** Rejects when a commit fails (the member must stop: nothing that depends on it may leave); never resolves. */
  readonly failed: Promise<never>;

  /** The layer of member `id` over its open `store` and its transport's durable side. */
  constructor(id: ProcessId, store: ProtocolStore, transport: TcpDurability) {
    this.#id = id;
    this.#store = store;
    this.#transport = transport;
    this.failed = new Promise<never>((_, reject) => {
      this.#fail = reject;
    });
    this.failed.catch(() => {}); // raced by the member runtime
  }

  /** `inner`, with every send and every message handled a step of this layer (channels too). */
  endpoint(inner: Endpoint): Endpoint {
    return {
      self: inner.self,
      peers: inner.peers,
      path: inner.path,
      send: (to: ProcessId, msg: Message) => {
        inner.send(to, msg);
        this.touch();
      },
      onMessage: (fn: (from: ProcessId, msg: Message) => void) =>
        inner.onMessage((from, msg) => {
          this.touch();
          fn(from, msg);
        }),
      channel: (name: string) => this.endpoint(inner.channel(name)),
    };
  }

  /** The CS object whose state is persisted (its state changes are steps) and the runtime's own state. */
  attach(cs: DurableCSObject<unknown>, member: () => JsonValue): void {
    this.#cs = cs;
    this.#member = member;
    cs.on('statechange', () => this.touch());
    this.touch();
  }

  /** A step happened: this turn's state is staged and committed after the turn. */
  touch(): void {
    if (this.#scheduled || this.#closed) return;
    this.#scheduled = true;
    setImmediate(() => this.#endTurn());
  }

  #endTurn(): void {
    this.#scheduled = false;
    if (this.#closed || this.#cs === undefined) return;
    const { point, state } = this.#transport.stage();
    try {
      this.#store.stage(RECORD.transport, state as unknown as JsonValue);
      this.#store.stage(RECORD.cs, this.#cs.durableState());
      this.#store.stage(RECORD.member, this.#member());
    } catch (err) {
      this.#failWith(err);
      return;
    }
    this.#last = this.#store.commit().then(
      () => {
        if (!this.#closed) this.#transport.committed(point);
      },
      (err: unknown) => this.#failWith(err),
    );
  }

  #failWith(err: unknown): void {
    this.#closed = true;
    const why = err instanceof Error ? err.message : String(err);
    this.#fail(
      new StoreError(
        err instanceof StoreError ? err.reason : 'io',
        `P${this.#id}: the member's store failed to commit its state (${why}); the member stops, since nothing that depends on an uncommitted state may leave it; restart it with --recover once the disk is fixed`,
        { cause: err },
      ),
    );
  }

  /**
   * Stages and commits now (before the transport starts: a member that crashes later is never
   * left without the session ids its peers saw in its hellos).
   * @throws StoreError when the commit fails.
   */
  async commitNow(): Promise<void> {
    this.#endTurn();
    await this.#last;
    if (this.#closed) await this.failed;
  }

  /** Waits for the last commit, then closes the store (the end of the run). */
  async close(): Promise<void> {
    if (this.#scheduled) this.#endTurn();
    this.#closed = true;
    await this.#last.catch(() => {});
    await this.#store.close();
  }
}
