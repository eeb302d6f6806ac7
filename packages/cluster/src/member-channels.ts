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
}

/**
 * The barrier `type` (`START`: every member's workload is ready to start; `DONE`: every member
 * finished its counted work; `BYE`: every member's workload returned, so nobody still needs
 * anybody) among `n` members on `control`. It is
 * re-announced to a peer that restarted (its new session lost the first announcement).
 */
export function barrier(
  transport: TcpTransport,
  control: Endpoint,
  n: number,
  type: 'START' | 'DONE' | 'BYE',
): Barrier {
  const from = new Set<ProcessId>();
  let announced = false;
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
  return {
    promise,
    announce() {
      if (announced) return;
      announced = true;
      for (const p of transport.endpoint.peers) control.send(p, { type });
      check();
    },
  };
}
