/**
 * Test support: two root endpoints over in-memory links whose deliveries the test flushes by
 * hand (FIFO per link), for the endpoint's own tests (mux, onUnopened).
 */
import { type Message, type ProcessId, TransportError } from '@critsec/core';
import { createEndpoint, type EndpointOptions, type Link } from '../src/index.js';

/** Two in-memory links whose deliveries the test flushes by hand (FIFO per link). */
export function pair(options: EndpointOptions = {}) {
  const queue: [ProcessId, ProcessId, string, Message][] = [];
  const receivers: ((from: ProcessId, channel: string, msg: Message) => void)[] = [];
  const link = (self: ProcessId): Link => ({
    self,
    peers: [0, 1],
    send(to, channel, msg) {
      if (to !== 0 && to !== 1) throw new TransportError(`unknown peer ${to}`);
      queue.push([self, to, channel, msg]);
    },
    setReceiver(fn) {
      receivers[self] = fn;
    },
  });
  const a = createEndpoint(link(0));
  const b = createEndpoint(link(1), options);
  const flush = () => {
    while (queue.length > 0) {
      const [from, to, ch, msg] = queue.shift()!;
      receivers[to]!(from, ch, msg);
    }
  };
  return { a, b, flush };
}
