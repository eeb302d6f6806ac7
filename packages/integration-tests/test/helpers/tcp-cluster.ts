/**
 * A cluster of CS objects over `tcpTransport` in ONE Node process (issue #6, "What it must
 * show"): one transport per process on 127.0.0.1 with ports chosen by the OS, mutual TLS with
 * certificates from `createDevCertificates`, the CS object of each process on the channel `cs`,
 * and the `SafetyMonitor` of `@critsec/testing` on every object's `statechange` — exactly as the
 * simulated harness (`createCluster`) watches it. Because every object lives in this process
 * and `statechange` fires synchronously at the flip, the monitor sees the real-time order of
 * all state changes: its check is exact, not an approximation like the shared log's.
 *
 * Optionally every endpoint is wrapped by a {@link LinkRecorder} that keeps, per
 * (sender, receiver, channel), the sequence of messages sent and the sequence delivered, so a
 * test can prove nothing was lost, duplicated or reordered above the transport.
 */
import {
  type CSFactory,
  type CSObject,
  type CSState,
  type Endpoint,
  type Message,
  type ProblemSpec,
  type ProcessId,
  TransportError,
} from '@critsec/core';
import { defaultInitial, SafetyMonitor } from '@critsec/harness';
import { noProgressMs, waitForProgress } from '@critsec/testing';
import { type TcpTransport, type TcpTransportOptions, tcpTransport } from '@critsec/transport-tcp';
import {
  type ClusterCertificates,
  createDevCertificates,
  freeLoopbackPorts,
} from '@critsec/transport-tcp/setup';

/** The largest cluster the shared certificates cover. */
const MAX_N = 9;

let certificates: Promise<ClusterCertificates> | undefined;
/** One cluster CA and certificates for processes 0 … MAX_N−1, made once per test file. */
function devCertificates(): Promise<ClusterCertificates> {
  certificates ??= createDevCertificates(MAX_N);
  return certificates;
}

/** Per (from, to, channel path): the messages in the order sent, and in the order delivered. */
class LinkRecorder {
  readonly sent = new Map<string, string[]>();
  readonly delivered = new Map<string, string[]>();
  /** Called after every recorded send (fault tests hook their chaos here). */
  onSend: ((from: ProcessId, to: ProcessId) => void) | undefined;

  static key(from: ProcessId, to: ProcessId, channel: string): string {
    return `P${from}->P${to} ${channel}`;
  }

  #push(map: Map<string, string[]>, key: string, msg: Message): void {
    let list = map.get(key);
    if (list === undefined) {
      list = [];
      map.set(key, list);
    }
    list.push(JSON.stringify(msg));
  }

  /** Wraps `inner` (an endpoint of process `inner.self`) so every send and delivery on it and its channels is recorded. */
  wrap(inner: Endpoint): Endpoint {
    const self = inner.self;
    const path = inner.path;
    // Registered first, before the algorithm's own handler: records each delivery exactly once.
    inner.onMessage((from, msg) => this.#push(this.delivered, LinkRecorder.key(from, self, path), msg));
    const channels = new Map<string, Endpoint>();
    return {
      self,
      peers: inner.peers,
      path,
      send: (to, msg) => {
        inner.send(to, msg);
        this.#push(this.sent, LinkRecorder.key(self, to, path), msg);
        this.onSend?.(self, to);
      },
      onMessage: (fn) => inner.onMessage(fn),
      channel: (name) => {
        let c = channels.get(name);
        if (c === undefined) {
          c = this.wrap(inner.channel(name));
          channels.set(name, c);
        }
        return c;
      },
    };
  }

  /** Messages sent and delivered over all links. */
  totals(): { sent: number; delivered: number; links: number } {
    let sent = 0;
    let delivered = 0;
    for (const l of this.sent.values()) sent += l.length;
    for (const l of this.delivered.values()) delivered += l.length;
    return { sent, delivered, links: new Set([...this.sent.keys(), ...this.delivered.keys()]).size };
  }

  /**
   * Links whose delivered sequence is not exactly the sent sequence (a loss, a duplicate, a
   * reordering or a corruption), described; empty when every link is exact.
   */
  mismatches(): string[] {
    const out: string[] = [];
    for (const key of new Set([...this.sent.keys(), ...this.delivered.keys()])) {
      const s = this.sent.get(key) ?? [];
      const d = this.delivered.get(key) ?? [];
      const len = Math.max(s.length, d.length);
      for (let i = 0; i < len; i++) {
        if (s[i] !== d[i]) {
          out.push(
            `${key}: ${s.length} sent, ${d.length} delivered; first difference at #${i}: sent ${s[i] ?? '(nothing)'}, delivered ${d[i] ?? '(nothing)'}`,
          );
          break;
        }
      }
    }
    return out;
  }
}

/** Options of {@link createTcpCluster}. */
export interface TcpClusterOptions<Req = void> {
  readonly factory: CSFactory<Req>;
  /** The problem the monitor checks; `spec.n` is the cluster size (≤ {@link MAX_N}). */
  readonly spec: ProblemSpec;
  /** Initial configuration (default `defaultInitial(spec)`: the first l processes InCS). */
  readonly initial?: readonly CSState[];
  /** Extra transport options (heartbeats, reconnect backoff, …). */
  readonly transport?: Partial<Omit<TcpTransportOptions, 'self' | 'peers' | 'tls' | 'insecure'>>;
  /** Wrap every endpoint with a {@link LinkRecorder}. */
  readonly recordLinks?: boolean;
  /** Time allowed for every pair to connect, ms (default `noProgressMs()`, two minutes). */
  readonly readyTimeoutMs?: number;
}

/** A running cluster; {@link TcpCluster.close} releases every socket and timer (idempotent). */
export interface TcpCluster<Req = void> {
  readonly n: number;
  readonly spec: ProblemSpec;
  readonly initial: readonly CSState[];
  readonly transports: readonly TcpTransport[];
  readonly objects: readonly CSObject<Req>[];
  readonly monitor: SafetyMonitor;
  /** Errors reported by the objects' and the transports' `error` events. */
  readonly errors: string[];
  readonly links: LinkRecorder | undefined;
  /** ms since the cluster was ready (the monitor's clock). */
  now(): number;
  close(): Promise<void>;
}

async function attempt<Req>(options: TcpClusterOptions<Req>, n: number): Promise<TcpCluster<Req>> {
  const certs = await devCertificates();
  const ports = await freeLoopbackPorts(n);
  const peers = ports.map((port, id) => ({ id, host: '127.0.0.1', port }));
  const spec = options.spec;
  const initial = options.initial ?? defaultInitial(spec);
  const errors: string[] = [];
  const links = options.recordLinks ? new LinkRecorder() : undefined;
  const transports = peers.map((p) =>
    tcpTransport({
      self: p.id,
      peers,
      tls: { ca: certs.ca, cert: certs.processes[p.id]!.cert, key: certs.processes[p.id]!.key },
      logger: null,
      reconnect: { initialDelayMs: 5, maxDelayMs: 200 },
      ...options.transport,
    }),
  );
  const monitor = new SafetyMonitor(spec, initial);
  let t0 = performance.now();
  const now = () => performance.now() - t0;
  const objects: CSObject<Req>[] = [];
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await Promise.allSettled(objects.map((o) => o.close()));
    await Promise.allSettled(transports.map((t) => t.close()));
  };
  try {
    for (const t of transports) {
      t.on('error', (e) => errors.push(`P${t.self} transport: ${e.message}`));
      const raw = t.endpoint.channel('cs');
      const endpoint = links ? links.wrap(raw) : raw;
      // The objects exist before the transports start, so no message reaches a missing handler.
      const cs = options.factory({ id: t.self, n, endpoint, initial });
      cs.on('statechange', (s) => monitor.change(t.self, s, now()));
      cs.on('error', (e) => errors.push(`P${t.self} cs: ${e.message}`));
      objects.push(cs);
    }
    await Promise.all(transports.map((t) => t.start()));
    await Promise.all(
      transports.map((t) => t.ready({ timeoutMs: options.readyTimeoutMs ?? noProgressMs() })),
    );
  } catch (err) {
    await close();
    throw err;
  }
  t0 = performance.now();
  return { n, spec, initial, transports, objects, monitor, errors, links, now, close };
}

/**
 * Starts `spec.n` transports on loopback (mutual TLS), builds one CS object per process on
 * channel `cs`, attaches the safety monitor, and waits until every pair is connected. A port
 * taken between choosing and binding it (another test grabbed it) is retried with fresh ports.
 *
 * @throws TransportError if the cluster cannot be started (after 3 attempts) or connected.
 */
export async function createTcpCluster<Req = void>(
  options: TcpClusterOptions<Req>,
): Promise<TcpCluster<Req>> {
  const n = options.spec.n;
  if (n > MAX_N) throw new RangeError(`createTcpCluster: n = ${n} > MAX_N = ${MAX_N}`);
  for (let i = 1; ; i++) {
    try {
      return await attempt(options, n);
    } catch (err) {
      const inUse = err instanceof TransportError && /EADDRINUSE/.test(err.message);
      if (!inUse || i >= 3) throw err;
    }
  }
}

/** Payloads between processes (the session layers' counts; heartbeats are not payloads). */
function sessionCounts<Req>(cluster: TcpCluster<Req>): { sent: number; delivered: number; unacked: number } {
  let sent = 0;
  let delivered = 0;
  let unacked = 0;
  for (const t of cluster.transports) {
    for (const p of t.endpoint.peers) {
      if (p === t.self) continue;
      const s = t.peerStats(p);
      sent += s.session.sent;
      delivered += s.session.delivered;
      unacked += s.unacked;
    }
  }
  return { sent, delivered, unacked };
}

/**
 * Waits until the cluster is quiescent: every transport has its messages acknowledged, and
 * (when links are recorded) every sent message is delivered, with no new message for `settleMs`.
 * Fails only after `stallMs` (default `noProgressMs()`) with no message delivered or acknowledged.
 */
export async function quiesce<Req>(
  cluster: TcpCluster<Req>,
  stallMs = noProgressMs(),
  settleMs = 30,
): Promise<void> {
  let previous = -1;
  const quiescent = () => {
    const c = sessionCounts(cluster);
    const totals = cluster.links?.totals();
    const balanced =
      c.unacked === 0 && c.sent === c.delivered && (totals === undefined || totals.sent === totals.delivered);
    const settled = c.sent === previous;
    previous = c.sent;
    return balanced && settled;
  };
  await waitForProgress(quiescent, {
    what: 'the cluster to be quiescent (every message acknowledged and delivered)',
    measure: () => {
      const c = sessionCounts(cluster);
      return `${c.sent}/${c.delivered}/${c.unacked}/${cluster.links?.totals().delivered}`;
    },
    limitMs: stallMs,
    pollMs: settleMs,
  });
}
