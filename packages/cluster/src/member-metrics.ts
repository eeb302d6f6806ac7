/*
 * The metrics of a cluster member (`critsec node --metrics [host:]port`, issue 29): one
 * prom-client registry per member with the process's own metrics (`collectDefaultMetrics`: CPU,
 * memory, event-loop lag, GC, handles) and the member's — the protocol messages its CS object
 * sent and received by channel and type, its entries and exits, whether it is InCS, and its
 * peers up or suspected by the transport's failure detector — served in the Prometheus text
 * format at `/metrics` by `node:http` (one endpoint needs no framework).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Endpoint, Message, ProcessId, Suspicions } from '@critsec/core';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';

/** Where a member serves its metrics: `host` (default `127.0.0.1`) and `port` (0: any free one). */
export interface MemberMetricsAddress {
  /** The port, 0–65535 (0: one the system picks). */
  readonly port: number;
  /** The interface (default `127.0.0.1`, this machine only; `0.0.0.0` for a scraper elsewhere). */
  readonly host?: string;
}

/** Where and how a member serves its metrics (`runClusterNode({ metrics })`). */
export interface MemberMetricsOptions extends MemberMetricsAddress {
  /** Told the URL (`http://host:port/metrics`, the port bound) once the server listens. */
  readonly onListening?: (url: string) => void;
}

/** A member's metrics (see the module comment). */
export class MemberMetrics {
  /** The member's registry: process metrics and the member's series, each labelled `member`. */
  readonly registry = new Registry();
  readonly #member: string;
  readonly #sent: Counter<'member' | 'channel' | 'type'>;
  readonly #received: Counter<'member' | 'channel' | 'type'>;
  readonly #calls: Counter<'member' | 'call'>;
  readonly #inCS: Gauge<'member'>;
  readonly #peersUp: Gauge<'member'>;
  readonly #peerUp: Gauge<'member' | 'peer'>;
  #offPeers: () => void = () => {};

  /** The metrics of member `id`. */
  constructor(id: ProcessId) {
    this.#member = String(id);
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    const byType: ('member' | 'channel' | 'type')[] = ['member', 'channel', 'type'];
    this.#sent = new Counter({
      name: 'critsec_messages_sent_total',
      help: 'Protocol messages the CS object sent (self-messages included), by channel path and type',
      labelNames: byType,
      registers,
    });
    this.#received = new Counter({
      name: 'critsec_messages_received_total',
      help: 'Protocol messages the CS object received, by channel path and type',
      labelNames: byType,
      registers,
    });
    this.#calls = new Counter({
      name: 'critsec_cs_calls_total',
      help: 'entry() and exit() calls completed',
      labelNames: ['member', 'call'],
      registers,
    });
    this.#inCS = new Gauge({
      name: 'critsec_in_cs',
      help: '1 while the member is InCS (between its entry and its exit), else 0',
      labelNames: ['member'],
      registers,
    });
    this.#peersUp = new Gauge({
      name: 'critsec_peers_up',
      help: "Peers the member's failure detector does not suspect (n − 1 when every one is up)",
      labelNames: ['member'],
      registers,
    });
    this.#peerUp = new Gauge({
      name: 'critsec_peer_up',
      help: "1 while the member's failure detector trusts the peer, 0 while it suspects it (down, silent, or gone)",
      labelNames: ['member', 'peer'],
      registers,
    });
    this.#inCS.set({ member: this.#member }, 0);
  }

  /** `inner`, every message sent and received through it (and its sub-channels) counted. */
  endpoint(inner: Endpoint): Endpoint {
    const sent = this.#sent;
    const received = this.#received;
    const member = this.#member;
    const wrap = (ep: Endpoint): Endpoint => ({
      self: ep.self,
      peers: ep.peers,
      path: ep.path,
      send(to: ProcessId, msg: Message) {
        ep.send(to, msg);
        sent.inc({ member, channel: ep.path, type: msg.type });
      },
      onMessage(fn) {
        return ep.onMessage((from, msg) => {
          received.inc({ member, channel: ep.path, type: msg.type });
          fn(from, msg);
        });
      },
      channel: (name) => wrap(ep.channel(name)),
    });
    return wrap(inner);
  }

  /** Follows the transport's failure detector: each of the `n − 1` peers up unless suspected. */
  peers(n: number, self: ProcessId, suspicions: Suspicions): void {
    const update = () => {
      const suspected = suspicions.suspected();
      let up = 0;
      for (let peer = 0; peer < n; peer++) {
        if (peer === self) continue;
        const trusted = !suspected.has(peer);
        if (trusted) up++;
        this.#peerUp.set({ member: this.#member, peer: String(peer) }, trusted ? 1 : 0);
      }
      this.#peersUp.set({ member: this.#member }, up);
    };
    update();
    this.#offPeers = suspicions.onChange(update);
  }

  /** An `entry()` or `exit()` completed. */
  called(call: 'entry' | 'exit'): void {
    this.#calls.inc({ member: this.#member, call });
    this.#inCS.set({ member: this.#member }, call === 'entry' ? 1 : 0);
  }

  /** Stops following the failure detector. */
  close(): void {
    this.#offPeers();
  }
}

/** A metrics server: its URL and its close. */
export interface MetricsServer {
  /** `http://host:port/metrics`, with the port bound. */
  readonly url: string;
  /** Stops listening and ends the open connections. */
  close(): Promise<void>;
}

/**
 * Serves `registry` at `/metrics` of `address` (Prometheus text format; 404 elsewhere, 500 with
 * the message when collecting fails).
 * @throws the listen error (EADDRINUSE, EACCES, …) when the port cannot be bound.
 */
export async function serveMetrics(
  registry: Registry,
  address: MemberMetricsAddress,
): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    if (req.url?.split('?')[0] !== '/metrics') {
      res.statusCode = 404;
      res.end('not found: the metrics are at /metrics\n');
      return;
    }
    registry.metrics().then(
      (text) => {
        res.setHeader('content-type', registry.contentType);
        res.end(text);
      },
      (err: unknown) => {
        res.statusCode = 500;
        res.end(`${(err as Error).message}\n`);
      },
    );
  });
  const host = address.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
