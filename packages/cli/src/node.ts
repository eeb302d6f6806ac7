/*
 * `critsec node --config cluster.json --id 3`: one member of a real deployment (DESIGN.md 5),
 * over the TCP/TLS transport of @critsec/transport-tcp and its cluster configuration format
 * (`loadClusterConfig`), also the member process `critsec cluster` spawns through that package's
 * launcher.
 *
 * The member runs the concurrent workload of `critsec simulate` in wall-clock time: `rounds`
 * rounds of entry and exit with think and hold times drawn uniformly from [0, 2·mean] ms
 * (seeded). A member that has finished its rounds keeps cycling (uncounted) until every member
 * has (a DONE barrier on the control channel), so that it never blocks the others by staying
 * InCS (mutual exclusion) or OutCS (mutual inclusion) — as the simulated workload does. Then it
 * withdraws its uncounted call in flight (abort), waits until every member is there (BYE), and
 * leaves. Every call is appended to the shared log (`entry-called`, `entry-done`, …) for the
 * launcher's safety check.
 *
 * With `params.workload: 'sequential'` member 0 coordinates instead: one call in flight in the
 * whole cluster, each chosen among the moves the global (l,k) state allows, the network
 * quiescent before the next (see `coordinate`) — the papers' uncontended setting, over TCP.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { ConfigurationError, type CSObject, isAbortError, type ProcessId } from '@critsec/core';
import { createRng } from '@critsec/transport-sim';
import {
  type ClusterNodeProgress,
  type ClusterNodeReport,
  type LoadedClusterConfig,
  loadClusterConfig,
  SharedLogWriter,
  type TcpLogger,
  tcpTransport,
  transportOptionsFor,
} from '@critsec/transport-tcp';
import * as v from 'valibot';
import { parseInteger, type ResolvedCluster, resolveCluster } from './algorithms.js';
import { countingEndpoint, messageStats } from './counting-endpoint.js';
import { fmt } from './summary.js';

const paramsSchema = v.strictObject({
  l: v.optional(v.pipe(v.number(), v.safeInteger(), v.minValue(0))),
  k: v.optional(v.pipe(v.number(), v.safeInteger(), v.minValue(1))),
  coterie: v.optional(v.string()),
  mx: v.optional(v.string()),
  seed: v.optional(v.pipe(v.number(), v.safeInteger(), v.minValue(0))),
  /** `concurrent` (default) or `sequential` (member 0 coordinates one call at a time). */
  workload: v.optional(v.picklist(['concurrent', 'sequential'])),
});

/**
 * The algorithm settings `critsec` keeps in a cluster configuration's `params` (the algorithm
 * itself is the configuration's `algorithm`: mutex, ricart-agrawala, mutin, kmutex or gcs).
 */
export type NodeParams = v.InferOutput<typeof paramsSchema>;

/** What `critsec` adds to a member's report (`ClusterNodeReport` of @critsec/transport-tcp). */
export interface NodeMeasurements {
  /** Counted entries / exits completed. */
  readonly entries: number;
  readonly exits: number;
  /** Wall-clock waiting times of counted calls, ms. */
  readonly entryWaitsMs: readonly number[];
  readonly exitWaitsMs: readonly number[];
  /** Messages this member's CS object sent (self-messages included) and received. */
  readonly sent: number;
  readonly delivered: number;
  /** Sent per `channel TYPE`. */
  readonly byType: Readonly<Record<string, number>>;
  /** Sent per invocation key `"<process>:<round>:<entry|exit>"` (counted calls of any member). */
  readonly byInvocation: Readonly<Record<string, number>>;
  /** Uncounted calls made after this member's rounds, and whether the last was withdrawn. */
  readonly extraCalls: number;
  readonly withdrawn: boolean;
}

/** A member's report: the transport package's fields plus `cli`. */
export interface NodeReport extends ClusterNodeReport {
  readonly cli: NodeMeasurements;
}

/** Options of {@link runNode}. */
export interface RunNodeOptions {
  readonly configPath: string;
  readonly id: ProcessId;
  readonly onProgress?: (p: ClusterNodeProgress) => void;
  /** Transport warnings (default: none). */
  readonly logger?: TcpLogger | null;
}

/**
 * Reads the algorithm part of a cluster configuration (`algorithm`, `params`, `initial`,
 * `bounds`) into a validated cluster.
 * @throws ConfigurationError naming the field when it is not one `critsec` can run.
 */
export function clusterFromConfig(
  loaded: LoadedClusterConfig,
): ResolvedCluster & { seed: number; workload: 'concurrent' | 'sequential' } {
  const { config } = loaded;
  const p = v.safeParse(paramsSchema, config.params ?? {});
  if (!p.success) {
    const issue = p.issues[0]!;
    const path = issue.path?.map((x) => String(x.key)).join('.') ?? '';
    throw new ConfigurationError(
      `cluster config: params${path ? `.${path}` : ''}: ${issue.message}; params holds { l?, k?, coterie?, mx?, seed?, workload? }`,
    );
  }
  const params = p.output;
  const inCS = loaded.initial.flatMap((s, i) => (s === 'InCS' ? [i] : []));
  let cluster: ResolvedCluster;
  try {
    cluster = resolveCluster({
      algorithm: config.algorithm,
      n: config.n,
      ...(params.l === undefined ? {} : { l: params.l }),
      ...(params.k === undefined ? {} : { k: params.k }),
      ...(params.coterie === undefined ? {} : { coterie: params.coterie }),
      ...(params.mx === undefined ? {} : { mx: params.mx }),
      // the configuration's initial states (default every process OutCS, as the shared-log check reads them)
      init: inCS.length === 0 ? 'none' : inCS.join(','),
    });
  } catch (err) {
    if (!(err instanceof ConfigurationError)) throw err;
    const m = err.message
      .replace(/^--init [^:]*: /, 'initial: ')
      .replace(/\(e\.g\. --init first:(\d+)\)/, '(e.g. the first $1 InCS)');
    throw new ConfigurationError(`cluster config ${loaded.path} (algorithm, params, initial): ${m}`);
  }
  if (config.bounds !== undefined && (config.bounds.l !== cluster.l || config.bounds.k !== cluster.k)) {
    throw new ConfigurationError(
      `cluster config: bounds (l = ${config.bounds.l}, k = ${config.bounds.k}) differ from the algorithm's (l = ${cluster.l}, k = ${cluster.k}); give the same or leave bounds out`,
    );
  }
  return { ...cluster, seed: params.seed ?? 1, workload: params.workload ?? 'concurrent' };
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

const sleep = (ms: number) => (ms > 0 ? new Promise<void>((r) => setTimeout(r, ms)) : Promise.resolve());

/**
 * Runs member `id` of the cluster in `configPath` to the end (see the module comment).
 * @throws ConfigurationError for a bad configuration; TransportError when the peers cannot be
 *   reached within the configuration's `readyTimeoutMs`.
 */
export async function runNode(options: RunNodeOptions): Promise<NodeReport> {
  const loaded = loadClusterConfig(options.configPath);
  const { config } = loaded;
  const id = options.id;
  if (!(Number.isSafeInteger(id) && id >= 0 && id < config.n)) {
    throw new ConfigurationError(`--id must be a process id 0..${config.n - 1} of ${loaded.path}, got ${id}`);
  }
  const cluster = clusterFromConfig(loaded);
  const transport = tcpTransport({ ...transportOptionsFor(loaded, id), logger: options.logger ?? null });
  const errors: string[] = [];
  const noteError = (e: Error) => {
    if (errors.length < 20) errors.push(e.message);
  };
  transport.on('error', noteError);
  const log = new SharedLogWriter(loaded.resolve(config.log), {
    process: id,
    incarnation: transport.session,
  });
  log.append('start');

  const als = new AsyncLocalStorage<string | null>();
  const stats = messageStats();
  const endpoint = countingEndpoint(transport.endpoint.channel('cs'), als, stats);
  const cs: CSObject = cluster.factory({ id, n: config.n, endpoint, initial: cluster.initial });
  cs.on('error', noteError);

  const control = transport.endpoint.channel('__cluster');
  const doneFrom = new Set<ProcessId>();
  const byeFrom = new Set<ProcessId>();
  let finished = false;
  let wake: () => void = () => {};
  // sequential workload: calls this member is asked to make; answers to the coordinator
  const invocations: { op: 'entry' | 'exit'; counted: boolean }[] = [];
  const invoked: number[] = [];
  const counts = new Map<number, { sent: number; delivered: number }[]>();
  control.onMessage((from, msg) => {
    switch (msg.type) {
      case 'DONE':
        doneFrom.add(from);
        break;
      case 'BYE':
        byeFrom.add(from);
        break;
      case 'FINISH':
        finished = true;
        break;
      case 'INVOKE':
        invocations.push({ op: msg.op === 'exit' ? 'exit' : 'entry', counted: msg.counted === true });
        break;
      case 'INVOKED':
        invoked.push(from);
        break;
      case 'COUNT':
        control.send(from, { type: 'COUNTS', seq: msg.seq, sent: stats.sent, delivered: stats.delivered });
        break;
      case 'COUNTS': {
        const seq = Number(msg.seq);
        const list = counts.get(seq) ?? [];
        list.push({ sent: Number(msg.sent), delivered: Number(msg.delivered) });
        counts.set(seq, list);
        break;
      }
    }
    wake();
  });
  const until = (cond: () => boolean) =>
    new Promise<void>((resolve) => {
      if (cond()) return resolve();
      const prev = wake;
      wake = () => {
        prev();
        if (cond()) resolve();
      };
    });

  await transport.start();
  await transport.ready({ timeoutMs: config.readyTimeoutMs ?? 30_000 });
  options.onProgress?.({ id, event: 'ready' });

  const { rounds, thinkMs = 2, holdMs = 1 } = config.workload;
  const rng = createRng(cluster.seed * 1_000_003 + id);
  const draw = (mean: number) => (mean <= 0 ? 0 : rng.next() * 2 * mean);
  const entryWaits: number[] = [];
  const exitWaits: number[] = [];
  const expected = 2 * rounds;
  let done = 0;
  let extra = 0;
  let announced = false;
  let withdrawn = false;
  let stopping: AbortController | undefined;
  const t0 = performance.now();
  const allDone = () => doneFrom.size === config.n;
  const stopExtra = until(allDone).then(() => {
    stopping?.abort('every member finished its rounds');
  });
  const announce = () => {
    log.append('done');
    options.onProgress?.({ id, event: 'rounds-done' });
    announced = true;
    for (const p of transport.endpoint.peers) control.send(p, { type: 'DONE' });
  };
  if (expected === 0) announce();

  /**
   * One logged call. Counted calls carry the attribution key of their round; an uncounted call
   * can be withdrawn through `stopping` (returns false then).
   */
  const call = async (op: 'entry' | 'exit', counted: boolean): Promise<boolean> => {
    const round = Math.floor(done / 2) + 1;
    const key = counted ? `${id}:${round}:${op}` : null;
    const ac = counted ? undefined : new AbortController();
    stopping = ac;
    log.append(op === 'entry' ? 'entry-called' : 'exit-called', round);
    const s = performance.now();
    try {
      const opts = ac ? { signal: ac.signal } : undefined;
      await als.run(key, () => (op === 'entry' ? cs.entry(opts) : cs.exit(opts)));
    } catch (err) {
      if (ac?.signal.aborted && isAbortError(err)) {
        // an uncounted call withdrawn: the state is unchanged (CS object contract)
        log.append(op === 'entry' ? 'entry-aborted' : 'exit-aborted', round);
        withdrawn = true;
        return false;
      }
      throw err;
    } finally {
      stopping = undefined;
    }
    const waited = performance.now() - s;
    log.append(op === 'entry' ? 'entry-done' : 'exit-done', round);
    if (counted) {
      (op === 'entry' ? entryWaits : exitWaits).push(waited);
      done++;
      options.onProgress?.({ id, event: op === 'entry' ? 'entry-done' : 'exit-done', round });
      if (done === expected) announce();
    } else extra++;
    return true;
  };

  /**
   * The sequential workload's coordinator (member 0): one call in flight in the whole cluster,
   * chosen at random (seeded) among the moves the global (l,k) state allows — counted moves
   * first, a finished member's uncounted move only when no counted one is allowed — and the
   * network quiescent before the next: two consecutive waves of (sent, delivered) counts that
   * agree and balance (Mattern's four-counter method).
   */
  async function coordinate(): Promise<void> {
    const n = config.n;
    const states = [...cluster.initial];
    let inCS = states.filter((x) => x === 'InCS').length;
    const calls = new Array<number>(n).fill(0);
    const pick = createRng(cluster.seed);
    let seq = 0;
    let extraRun = 0;
    const quiescent = async () => {
      let previous: string | undefined;
      for (;;) {
        seq++;
        const mine = seq;
        for (const p of transport.endpoint.peers) control.send(p, { type: 'COUNT', seq: mine });
        await until(() => (counts.get(mine)?.length ?? 0) === n);
        const list = counts.get(mine)!;
        counts.delete(mine);
        const sent = list.reduce((a, c) => a + c.sent, 0);
        const delivered = list.reduce((a, c) => a + c.delivered, 0);
        const wave = `${sent}/${delivered}`;
        if (sent === delivered && wave === previous) return;
        previous = wave;
      }
    };
    await quiescent();
    while (calls.some((c) => c < expected)) {
      let chosen: { i: ProcessId; op: 'entry' | 'exit'; counted: boolean } | undefined;
      for (const counted of [true, false]) {
        const candidates: ProcessId[] = [];
        for (let i = 0; i < n; i++) if (calls[i]! < expected === counted) candidates.push(i);
        while (candidates.length > 0 && chosen === undefined) {
          const t = pick.int(candidates.length);
          const i = candidates[t]!;
          const op = states[i] === 'OutCS' ? 'entry' : 'exit';
          if (op === 'entry' ? inCS + 1 <= cluster.k : inCS - 1 >= cluster.l) chosen = { i, op, counted };
          else {
            candidates[t] = candidates[candidates.length - 1]!;
            candidates.pop();
          }
        }
        if (chosen !== undefined) break;
      }
      extraRun = chosen !== undefined && !chosen.counted ? extraRun + 1 : 0;
      if (chosen === undefined || extraRun > 4 * n) {
        throw new Error(
          'sequential workload: no remaining move is allowed by the (l,k)-CS from this configuration',
        );
      }
      const before = invoked.length;
      control.send(chosen.i, { type: 'INVOKE', op: chosen.op, counted: chosen.counted });
      await until(() => invoked.length > before);
      states[chosen.i] = chosen.op === 'entry' ? 'InCS' : 'OutCS';
      inCS += chosen.op === 'entry' ? 1 : -1;
      if (chosen.counted) calls[chosen.i]!++;
      await quiescent();
    }
    for (const p of transport.endpoint.peers) control.send(p, { type: 'FINISH' });
  }

  if (cluster.workload === 'sequential') {
    // Member 0 coordinates (see `coordinate`); every member makes the calls it is asked for.
    const coordinating = id === 0 ? coordinate() : Promise.resolve();
    for (;;) {
      await until(() => invocations.length > 0 || finished);
      const next = invocations.shift();
      if (next === undefined) break;
      const expectedOp = cs.state === 'OutCS' ? 'entry' : 'exit';
      if (next.op !== expectedOp) throw new Error(`P${id} was asked for ${next.op}() while ${cs.state}`);
      await call(next.op, next.counted);
      control.send(0, { type: 'INVOKED' });
    }
    await coordinating;
  } else {
    while (!(announced && allDone())) {
      const op = cs.state === 'OutCS' ? 'entry' : 'exit';
      await sleep(draw(op === 'entry' ? thinkMs : holdMs));
      if (announced && allDone()) break;
      if (!(await call(op, done < expected))) break;
    }
  }
  await stopExtra;
  const durationMs = performance.now() - t0;
  for (const p of transport.endpoint.peers) control.send(p, { type: 'BYE' });
  await until(() => byeFrom.size === config.n);
  await transport.flush({ timeoutMs: 10_000 }).catch(noteError);

  const sorted = [...entryWaits].sort((a, b) => a - b);
  const session = { sent: 0, delivered: 0, retransmitted: 0, duplicates: 0 };
  for (const p of transport.endpoint.peers) {
    if (p === id) continue;
    const st = transport.peerStats(p).session;
    session.sent += st.sent;
    session.delivered += st.delivered;
    session.retransmitted += st.retransmitted;
    session.duplicates += st.duplicates;
  }
  const st = transport.stats;
  const report: NodeReport = {
    id,
    incarnation: transport.session,
    rounds: entryWaits.length,
    durationMs,
    entryWaitMs: { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: sorted.at(-1) ?? 0 },
    messages: session,
    transport: {
      connections: st.connections,
      disconnections: st.disconnections,
      refused: Object.values(st.refused).reduce((a, b) => a + b, 0),
    },
    errors,
    cli: {
      entries: entryWaits.length,
      exits: exitWaits.length,
      entryWaitsMs: entryWaits,
      exitWaitsMs: exitWaits,
      sent: stats.sent,
      delivered: stats.delivered,
      byType: Object.fromEntries(stats.byType),
      byInvocation: Object.fromEntries(stats.byInvocation),
      extraCalls: extra,
      withdrawn,
    },
  };
  await cs.close();
  await transport.close();
  log.close();
  return report;
}

function meanMax(xs: readonly number[]): string {
  if (xs.length === 0) return '—';
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return `${fmt(mean)} / ${fmt(Math.max(...xs))} ms`;
}

/** `critsec node`: runs a member and formats its report. */
export async function runNodeCommand(
  configPath: string,
  idText: string,
): Promise<NodeReport & { ok: boolean; text: string }> {
  const id = parseInteger('id', idText, 0);
  const report = await runNode({ configPath, id, logger: { warn: (m) => process.stderr.write(`${m}\n`) } });
  const c = report.cli;
  const text = [
    `P${id}: ${c.entries} entries and ${c.exits} exits in ${fmt(report.durationMs / 1000)} s`,
    `entry waiting time (mean / max): ${meanMax(c.entryWaitsMs)}`,
    `exit waiting time (mean / max): ${meanMax(c.exitWaitsMs)}`,
    `messages sent by this member: ${fmt(c.sent)} (received ${fmt(c.delivered)})`,
    ...(report.errors.length > 0 ? [`errors: ${report.errors.join('; ')}`] : []),
    'the cluster-wide safety check needs every member’s log records in one file (`critsec cluster` does it on one machine)',
  ].join('\n');
  return { ...report, ok: report.errors.length === 0, text };
}
