/**
 * Crash recovery of the TCP transport (issue 27): with `onPeerRestart: 'resume'` the transport is
 * **durable** — every peer's session acknowledges only what its owner committed (`ackOnCommit`
 * of `@critsec/transport`), the data frames of messages sent since the last commit are withheld
 * below the session (the outbox) and leave once the commit that covers them resolved, and the
 * transport's state (`TcpDurableState`: every session, and the messages to itself not yet
 * delivered) can be staged and restored, so a member killed at any instant restarts under the
 * same session ids and its peers resume.
 *
 * The owner's turn (`@critsec/cluster`'s member durable layer does it): `stage()` — stage the
 * returned `state` with the protocol's own state in one record, commit it, then
 * `committed(point)`.
 */
import { type Message, type ProcessId, TransportError } from '@critsec/core';
import type { CommitPoint, LinkState } from '@critsec/transport';

/** Version of {@link TcpDurableState}'s layout. */
const STATE_VERSION = 1;

/** What a durable TCP transport stages per turn and restores from (JSON; see the module comment). */
export interface TcpDurableState {
  /** The layout's version, 1. */
  readonly v: 1;
  /** The process the state belongs to. */
  readonly self: ProcessId;
  /** The transport's session id (every peer's session with this process has it). */
  readonly session: string;
  /** Every peer's session state, by peer id (as `ReliableLink.durableState` exports it; the payloads are the frames' JSON text). */
  readonly links: Readonly<Record<string, LinkState<string>>>;
  /** Messages this process sent itself and has not handled yet, in order. */
  readonly toSelf: readonly {
    /** The channel. */
    readonly c: string;
    /** The message. */
    readonly m: Message;
  }[];
}

/** What `stage()` captured: hand it back to `committed()` once the record is durable (opaque). */
export interface TcpCommitPoint {
  /** Every peer's commit point. */
  readonly links: ReadonlyMap<ProcessId, CommitPoint>;
}

/**
 * The durable side of a TCP transport built with `onPeerRestart: 'resume'` (see the module
 * comment): one `stage()` per turn in which anything happened, one `committed()` per resolved
 * commit, in order.
 */
export interface TcpDurability {
  /**
   * Takes every session's commit point and the transport's state as of now (stage the state in
   * the same record as the protocol's). Pure but for remembering the point.
   */
  stage(): {
    /** Hand it to `committed` once the record is durable. */
    readonly point: TcpCommitPoint;
    /** The state to stage (JSON). */
    readonly state: TcpDurableState;
  };
  /**
   * The record staged with `point` is durable: every session acknowledges what it covers and
   * the withheld frames it covers leave. Points may come late; an older one changes nothing.
   * @throws TransportError for a point this transport never staged.
   */
  committed(point: TcpCommitPoint): void;
}

function invalid(what: string): never {
  throw new TransportError(
    `tcpTransport: the restored state ${what}; restore a member from the record its own store committed ` +
      `(a store lost or of another member cannot be repaired: the member must rejoin as new, after the whole cluster is restarted)`,
  );
}

/**
 * Checks a restored {@link TcpDurableState} (it comes from disk: nothing is trusted): its
 * version, that it is `self`'s, that it holds a session state for every peer, and well-formed
 * messages to itself (each session state is checked field by field, and against the session id,
 * when its peer's session is rebuilt from it).
 * @throws TransportError naming the faulty part and the way out.
 */
export function parseTcpDurableState(
  x: unknown,
  self: ProcessId,
  peers: readonly ProcessId[],
): TcpDurableState {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) invalid('is not an object');
  const s = x as Record<string, unknown>;
  if (s.v !== STATE_VERSION) invalid(`has version ${JSON.stringify(s.v)}, expected ${STATE_VERSION}`);
  if (s.self !== self) invalid(`belongs to P${JSON.stringify(s.self)}, not P${self}`);
  if (typeof s.session !== 'string') invalid('has no session id');
  const links = s.links;
  if (typeof links !== 'object' || links === null) invalid('has no links');
  const others = peers.filter((p) => p !== self);
  const keys = Object.keys(links);
  if (keys.length !== others.length || others.some((p) => !Object.hasOwn(links, String(p)))) {
    invalid(`has links for [${keys.join(', ')}], not for the peers [${others.join(', ')}]`);
  }
  const toSelf = s.toSelf;
  if (
    !Array.isArray(toSelf) ||
    !toSelf.every(
      (e: unknown) =>
        typeof e === 'object' &&
        e !== null &&
        typeof (e as { c?: unknown }).c === 'string' &&
        typeof (e as { m?: { type?: unknown } }).m?.type === 'string',
    )
  ) {
    invalid('has malformed messages to itself');
  }
  return x as TcpDurableState;
}

/** The transport's side of {@link TcpDurability}, over its peers' sessions and its self queue. */
export function durability(
  self: ProcessId,
  session: string,
  peers: ReadonlyMap<ProcessId, DurablePeer>,
  toSelf: () => readonly { c: string; m: Message }[],
): TcpDurability {
  const staged = new WeakSet<TcpCommitPoint>();
  return {
    stage() {
      const points = new Map<ProcessId, CommitPoint>();
      const links: Record<string, LinkState<string>> = {};
      for (const [id, p] of peers) {
        points.set(id, p.link.commitPoint());
        links[String(id)] = p.link.durableState() as LinkState<string>;
      }
      const point: TcpCommitPoint = { links: points };
      staged.add(point);
      return { point, state: { v: STATE_VERSION, self, session, links, toSelf: [...toSelf()] } };
    },
    committed(point) {
      if (!staged.has(point)) {
        throw new TransportError('tcpTransport: committed() takes a point stage() returned');
      }
      for (const [id, p] of point.links) peers.get(id)!.release(p);
    },
  };
}

/** What {@link durability} needs of a peer (`Peer` of peer.ts). */
export interface DurablePeer {
  /** The peer's session. */
  readonly link: {
    commitPoint(): CommitPoint;
    durableState(): LinkState<unknown>;
  };
  /** The record covering `point` is durable: acknowledge and send what it covers. */
  release(point: CommitPoint): void;
}
