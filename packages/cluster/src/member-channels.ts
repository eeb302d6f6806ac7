/*
 * The member runtime's channels beside the CS object's (member-runtime.ts): the workload's own
 * channel, which holds what arrives before the workload subscribes, and the barriers on the
 * control channel (`__cluster`) that keep members together at the end of a run.
 */
import type { Endpoint, Message, ProcessId } from '@critsec/core';
import type { TcpTransport } from '@critsec/transport-tcp';
import type { ClusterWorkloadChannel } from './member-workload-contract.js';

/** `endpoint`, holding what arrives before the first handler subscribes and handing it to that handler. */
export function heldChannel(endpoint: Endpoint): ClusterWorkloadChannel {
  let held: [ProcessId, Message][] | undefined = [];
  const handlers = new Set<(from: ProcessId, msg: Message) => void>();
  endpoint.onMessage((from, msg) => {
    if (held !== undefined) held.push([from, msg]);
    else for (const fn of handlers) fn(from, msg);
  });
  return {
    self: endpoint.self,
    peers: endpoint.peers,
    send: (to, msg) => endpoint.send(to, msg),
    onMessage(fn) {
      handlers.add(fn);
      const early = held;
      held = undefined;
      for (const [from, msg] of early ?? []) fn(from, msg);
      return () => {
        handlers.delete(fn);
      };
    },
  };
}

/** A barrier of the cluster: resolves once this member announced it and every member did. */
export interface Barrier {
  readonly promise: Promise<void>;
  /** Tells every member (itself included) that this member reached the barrier. Idempotent. */
  announce(): void;
  /** What a durable member persists of it (issue 27): whether it announced, and whom it heard from. */
  snapshot(): BarrierState;
}

/** A barrier's durable state (see {@link Barrier.snapshot}). */
type BarrierState = {
  /** This member announced the barrier. */
  readonly announced: boolean;
  /** The members it heard the barrier from. */
  readonly from: ProcessId[];
};

/** A barrier state read back from a store (anything else: none). */
function restoredBarrier(x: unknown, n: number): BarrierState | undefined {
  if (typeof x !== 'object' || x === null) return undefined;
  const { announced, from } = x as { announced?: unknown; from?: unknown };
  if (typeof announced !== 'boolean' || !Array.isArray(from)) return undefined;
  if (!from.every((p) => Number.isSafeInteger(p) && p >= 0 && p < n)) return undefined;
  return { announced, from: from as ProcessId[] };
}

/**
 * The barrier `type` (`START`: every member's workload is ready to start; `DONE`: every member
 * finished its counted work; `BYE`: every member's workload returned, so nobody still needs
 * anybody) among `n` members on `control`. It is
 * re-announced to a peer that restarted (its new session lost the first announcement). A durable
 * member restarted from its store passes the state it persisted (`restored`, see
 * {@link Barrier.snapshot}); its peers resumed their sessions, so nothing is announced again.
 */
export function barrier(
  transport: TcpTransport,
  control: Endpoint,
  n: number,
  type: 'START' | 'DONE' | 'BYE',
  restored?: unknown,
): Barrier {
  const r = restoredBarrier(restored, n);
  const from = new Set<ProcessId>(r?.from ?? []);
  let announced = r?.announced ?? false;
  // its announcement to itself was not persisted if the member crashed before handling it
  if (announced) from.add(transport.self);
  let release: () => void = () => {};
  const promise = new Promise<void>((r) => {
    release = r;
  });
  const check = () => {
    if (announced && from.size === n) release();
  };
  control.onMessage((p, msg) => {
    if (msg.type === type) {
      from.add(p);
      check();
    }
  });
  transport.on('connected', ({ peer, kind }) => {
    if (kind !== 'reset') return;
    from.delete(peer);
    if (announced) control.send(peer, { type });
  });
  check();
  return {
    promise,
    snapshot: () => ({ announced, from: [...from] }),
    announce() {
      if (announced) return;
      announced = true;
      for (const p of transport.endpoint.peers) control.send(p, { type });
      check();
    },
  };
}
