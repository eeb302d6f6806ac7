/**
 * One member of a cluster of OS processes (issue #6): reads the cluster configuration, starts
 * the TCP transport, builds the configured CS object on channel `cs`, runs the workload while
 * appending `entry-called / entry-done / exit-called / exit-done` to the shared log, then waits
 * until every process has finished its rounds (a `DONE` barrier on channel `__cluster`, so no
 * process leaves while others may still need it) and reports.
 */
import type { CSObject, ProcessId } from '@critsec/core';
import { loadClusterAlgorithm } from './algorithms.js';
import { loadClusterConfig, transportOptionsFor } from './cluster-config.js';
import { SharedLogWriter } from './shared-log.js';
import { type TcpLogger, tcpTransport } from './tcp-transport.js';

/** Progress of a running node (sent to the launcher). */
export interface ClusterNodeProgress {
  readonly id: ProcessId;
  readonly event: 'ready' | 'entry-done' | 'exit-done' | 'rounds-done';
  /** The round (1-based) for CS events. */
  readonly round?: number;
}

/** What a node reports when it finishes. */
export interface ClusterNodeReport {
  readonly id: ProcessId;
  /** This incarnation's session id. */
  readonly incarnation: string;
  /** Rounds completed (entries made). */
  readonly rounds: number;
  /** Wall-clock duration of the workload, ms. */
  readonly durationMs: number;
  /** Time from `entry()` called to resolved, ms. */
  readonly entryWaitMs: { readonly p50: number; readonly p99: number; readonly max: number };
  /** Messages to / from other processes (the session layer's counts, summed over peers). */
  readonly messages: {
    readonly sent: number;
    readonly delivered: number;
    readonly retransmitted: number;
    readonly duplicates: number;
  };
  /** Transport events. */
  readonly transport: {
    readonly connections: number;
    readonly disconnections: number;
    readonly refused: number;
  };
  /** Errors reported by the transport or the CS object (first 20). */
  readonly errors: readonly string[];
}

/** Options of {@link runClusterNode}. */
export interface RunClusterNodeOptions {
  /** Path of `cluster.json`. */
  readonly configPath: string;
  /** This process's id. */
  readonly id: ProcessId;
  readonly onProgress?: (p: ClusterNodeProgress) => void;
  /** Transport warnings (default `console`). */
  readonly logger?: TcpLogger | null;
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

const sleep = (ms: number) => (ms > 0 ? new Promise<void>((r) => setTimeout(r, ms)) : Promise.resolve());

/**
 * Runs process `id` of the cluster described by `configPath` to completion and returns its
 * report. The CS object is created before the transport starts, so no message to it is lost.
 *
 * @throws ConfigurationError for a bad configuration or algorithm; TransportError when the
 * peers cannot be reached within `readyTimeoutMs`.
 */
export async function runClusterNode(options: RunClusterNodeOptions): Promise<ClusterNodeReport> {
  const loaded = loadClusterConfig(options.configPath);
  const { config, initial } = loaded;
  const { id } = options;
  const transport = tcpTransport({
    ...transportOptionsFor(loaded, id),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  });
  const log = new SharedLogWriter(loaded.resolve(config.log), {
    process: id,
    incarnation: transport.session,
  });
  const errors: string[] = [];
  const noteError = (e: Error) => {
    if (errors.length < 20) errors.push(e.message);
  };
  transport.on('error', noteError);
  log.append('start');

  const algorithm = config.algorithm.startsWith('.') ? loaded.resolve(config.algorithm) : config.algorithm;
  const mod = await loadClusterAlgorithm(algorithm);
  const factory = mod.createFactory(config.params, { n: config.n, initial });
  const cs = factory({
    id,
    n: config.n,
    endpoint: transport.endpoint.channel('cs'),
    initial,
  }) as CSObject<unknown>;
  cs.on('error', noteError);

  // The DONE barrier: re-announced to a peer that restarted (its new session lost the first one).
  const control = transport.endpoint.channel('__cluster');
  const doneFrom = new Set<ProcessId>();
  let announced = false;
  let allDone: () => void = () => {};
  const barrier = new Promise<void>((r) => {
    allDone = r;
  });
  const checkBarrier = () => {
    if (announced && doneFrom.size === config.n) allDone();
  };
  control.onMessage((from, msg) => {
    if (msg.type === 'DONE') {
      doneFrom.add(from);
      checkBarrier();
    }
  });
  transport.on('connected', ({ peer, kind }) => {
    if (kind === 'reset') {
      doneFrom.delete(peer);
      if (announced) control.send(peer, { type: 'DONE' });
    }
  });

  await transport.start();
  await transport.ready({ timeoutMs: config.readyTimeoutMs ?? 30_000 });
  options.onProgress?.({ id, event: 'ready' });

  const { rounds, holdMs = 0, thinkMs = 0 } = config.workload;
  const entryArgs = (cs.takesRequest ? [config.workload.request] : []) as Parameters<typeof cs.entry>;
  const waits: number[] = [];
  const t0 = performance.now();
  const enter = async (r: number) => {
    log.append('entry-called', r);
    const s = performance.now();
    await cs.entry(...entryArgs);
    waits.push(performance.now() - s);
    log.append('entry-done', r);
    options.onProgress?.({ id, event: 'entry-done', round: r });
  };
  const leave = async (r: number) => {
    log.append('exit-called', r);
    await cs.exit();
    log.append('exit-done', r);
    options.onProgress?.({ id, event: 'exit-done', round: r });
  };
  for (let r = 1; r <= rounds; r++) {
    if (cs.state === 'OutCS') {
      await enter(r);
      await sleep(holdMs);
      await leave(r);
      await sleep(thinkMs);
    } else {
      // Initially InCS: each round is an exit then an entry.
      await leave(r);
      await sleep(thinkMs);
      await enter(r);
      await sleep(holdMs);
    }
  }
  const durationMs = performance.now() - t0;
  log.append('done');
  options.onProgress?.({ id, event: 'rounds-done' });

  announced = true;
  for (const p of transport.endpoint.peers) control.send(p, { type: 'DONE' });
  await barrier;
  await transport.flush({ timeoutMs: 10_000 }).catch(noteError);

  const sorted = [...waits].sort((a, b) => a - b);
  const messages = { sent: 0, delivered: 0, retransmitted: 0, duplicates: 0 };
  for (const p of transport.endpoint.peers) {
    if (p === id) continue;
    const s = transport.peerStats(p).session;
    messages.sent += s.sent;
    messages.delivered += s.delivered;
    messages.retransmitted += s.retransmitted;
    messages.duplicates += s.duplicates;
  }
  const st = transport.stats;
  const report: ClusterNodeReport = {
    id,
    incarnation: transport.session,
    rounds: waits.length,
    durationMs,
    entryWaitMs: { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: sorted.at(-1) ?? 0 },
    messages,
    transport: {
      connections: st.connections,
      disconnections: st.disconnections,
      refused: Object.values(st.refused).reduce((a, b) => a + b, 0),
    },
    errors,
  };
  await cs.close();
  await transport.close();
  log.close();
  return report;
}
