/**
 * One member of a cluster as a lock service (`critsec node --serve`): the cluster
 * configuration's TCP/TLS transport, a `LockManager` over it in place of the built-in workload,
 * the HTTP service in front, `/readyz` from the transport's connections and suspicions, and the
 * graceful shutdown (release every grant, tell the peers, close).
 */
import { ConfigurationError, LeaveTimeoutError, type ProcessId } from '@critsec/core';
import { COTERIE_NAMES, type Coterie, coterieByName } from '@critsec/coteries';
import { loadClusterConfig, type LoadedClusterConfig, transportOptionsFor } from '@critsec/cluster';
import { createLockManager, type LockManager, LockOptionsError } from '@critsec/locks';
import { type TcpLogger, type TcpTransport, tcpTransport } from '@critsec/transport-tcp';
import * as v from 'valibot';
import type { Readiness } from './app.js';
import { quorumReadiness } from './readiness.js';
import { startLockService, type LockService } from './server.js';

/** The grace for long-polls to be answered when shutting down, ms. */
const GRACE_MS = 5_000;
/** How long the RELEASEs of the last grants may take to be acknowledged, ms. */
const FLUSH_MS = 5_000;
/** How long a leaving member keeps serving as an arbiter of its peers' quorums, ms. */
const LINGER_MS = 2_000;

/**
 * The longest a graceful shutdown takes, ms: the grace for long-polls, the flush of the last
 * RELEASEs, the leave's linger, plus a second to close: `critsec node --serve` exits 0 within it.
 */
export const SHUTDOWN_BOUND_MS = GRACE_MS + FLUSH_MS + LINGER_MS + 1_000;

/** The parameters of a lock service's cluster configuration (`algorithm: "mutex"`). */
const ParamsSchema = v.strictObject({
  coterie: v.optional(v.picklist(COTERIE_NAMES)),
  fencing: v.optional(v.boolean()),
  ttl: v.optional(v.pipe(v.number(), v.minValue(0))),
  driftMargin: v.optional(v.pipe(v.number(), v.minValue(0))),
  // the mutex descriptor's `"on"` / `"off"`, or a boolean
  reselect: v.optional(v.union([v.boolean(), v.picklist(['on', 'off'])])),
  // shared names' units (`@critsec/locks`' k: at most k shared holders; default n − 1)
  k: v.optional(v.pipe(v.number(), v.safeInteger(), v.minValue(1))),
});

/** Options of {@link startLockMember}. */
export interface LockMemberOptions {
  /** The cluster configuration file (`cluster.json`): peers, certificates, `algorithm: "mutex"` and its params. */
  readonly configPath: string;
  /** This member's id. */
  readonly id: ProcessId;
  /** Where the HTTP service listens: a Unix socket path or `host:port` (see `parseListen`). */
  readonly serve: string;
  /** The bearer token (required beyond loopback; see `LockServiceOptions.token`). */
  readonly token?: string;
  /** The names that may be requested `shared` (h-out-of-k); the same on every member. */
  readonly shared?: readonly string[];
  /** Transport warnings (default `console`). */
  readonly logger?: TcpLogger | null;
}

/** What a graceful shutdown did. */
export interface ShutdownReport {
  /** How long it took, ms. */
  readonly ms: number;
  /** The peers still running when this member left (they were told; the leave's linger passed). */
  readonly peersStillRunning: readonly ProcessId[];
  /** Errors met on the way (the shutdown went on). */
  readonly errors: readonly string[];
}

/** A running lock member. */
export interface LockMember {
  /** The HTTP service. */
  readonly service: LockService;
  /** The lock manager it serves. */
  readonly manager: LockManager;
  /** The member's transport. */
  readonly transport: TcpTransport;
  /** The coterie of exclusive names, in words. */
  readonly description: string;
  /** Whether the member can grant now (what `/readyz` answers). */
  readiness(): Readiness;
  /**
   * The graceful shutdown: the service stops accepting and ends every session (waits aborted,
   * grants released), the last RELEASEs are flushed, the transport leaves (peers are told), the
   * manager closes. Within {@link SHUTDOWN_BOUND_MS}. Idempotent.
   */
  shutdown(): Promise<ShutdownReport>;
}

/** The lock manager's options from a configuration's `algorithm` and `params`. @throws ConfigurationError. */
function lockSettings(loaded: LoadedClusterConfig): {
  coterie: Coterie;
  fencing?: boolean;
  ttl?: number;
  driftMargin?: number;
  reselect: boolean;
  k?: number;
} {
  const { config, path } = loaded;
  if (config.algorithm !== 'mutex')
    throw new ConfigurationError(
      `cluster config ${path}: the lock service runs Maekawa per name: set algorithm to "mutex" (got "${config.algorithm}")`,
    );
  if (config.durability !== undefined)
    throw new ConfigurationError(
      `cluster config ${path}: durability: the lock service keeps no durable state yet (remove durability)`,
    );
  const r = v.safeParse(ParamsSchema, config.params ?? {});
  if (!r.success)
    throw new ConfigurationError(
      `cluster config ${path}: params: ${r.issues.map((i) => `${v.getDotPath(i) ?? 'params'}: ${i.message}`).join('; ')} (the lock service takes coterie, fencing, ttl, driftMargin, reselect, k)`,
    );
  const { coterie = 'majority', reselect, ...grants } = r.output;
  return {
    coterie: coterieByName(coterie, config.n),
    ...grants,
    reselect: reselect === true || reselect === 'on',
  };
}

/**
 * Starts member `id` as a lock service: transport, manager, HTTP service. Serves at once;
 * `/readyz` says when this member's quorum is connected.
 * With `params.reselect` (`"on"` or `true`) exclusive names reselect quorums around suspected
 * members (`@critsec/locks`' `reselect`) and `/readyz` follows the quorum an entry asks now
 * (`quorumReadiness`).
 * @throws ConfigurationError for a configuration the service cannot run (another algorithm,
 *   `durability`, unknown params, options the lock manager refuses — `reselect` with `shared`
 *   names and the default k = n − 1 (one 1-unit quorum: set `params.k` ≤ n − 2), a `k` ≥ n, or
 *   `reselect` over a coterie with a single quorum),
 *   or an address beyond loopback without a token; the transport's or the server's error when a
 *   port cannot be bound.
 */
export async function startLockMember(o: LockMemberOptions): Promise<LockMember> {
  const loaded = loadClusterConfig(o.configPath);
  const { n } = loaded.config;
  const settings = lockSettings(loaded);
  const transport = tcpTransport({
    ...transportOptionsFor(loaded, o.id),
    ...(o.logger === undefined ? {} : { logger: o.logger }),
  });
  let manager: LockManager;
  try {
    manager = createLockManager({
      endpoint: transport.endpoint,
      id: o.id,
      n,
      ...settings,
      ...(o.shared === undefined ? {} : { shared: o.shared }),
    });
  } catch (err) {
    if (!(err instanceof LockOptionsError)) throw err;
    throw new ConfigurationError(`cluster config ${loaded.path}: ${err.message}`, { cause: err });
  }
  const readiness: () => Readiness = quorumReadiness({
    coterie: settings.coterie,
    id: o.id,
    reselect: settings.reselect,
    isConnected: (p) => transport.isConnected(p),
    suspicions: transport.endpoint.suspicions,
  });
  let service: LockService;
  try {
    await transport.start();
    service = await startLockService({
      manager,
      listen: o.serve,
      readiness,
      ...(o.token === undefined ? {} : { token: o.token }),
    });
  } catch (err) {
    await manager.close();
    await transport.close({ lingerMs: 0 }).catch(() => {});
    throw err;
  }
  let report: Promise<ShutdownReport> | undefined;
  return {
    service,
    manager,
    transport,
    description: [
      settings.coterie.description,
      ...(settings.fencing === true || settings.ttl !== undefined ? ['fencing tokens'] : []),
      ...(settings.ttl === undefined ? [] : [`grants of ${settings.ttl} ms renewed while held`]),
      ...(settings.reselect ? ['quorum reselection'] : []),
    ].join(', '),
    readiness,
    shutdown: () => (report ??= shutdown(service, manager, transport)),
  };
}

async function shutdown(
  service: LockService,
  manager: LockManager,
  transport: TcpTransport,
): Promise<ShutdownReport> {
  const t0 = performance.now();
  const errors: string[] = [];
  const note = (e: unknown) => void errors.push(e instanceof Error ? e.message : String(e));
  let peersStillRunning: readonly ProcessId[] = [];
  await service.close({ graceMs: GRACE_MS }).catch(note);
  await transport.flush({ timeoutMs: FLUSH_MS }).catch(note);
  await transport.close({ lingerMs: LINGER_MS }).catch((e: unknown) => {
    if (e instanceof LeaveTimeoutError) peersStillRunning = e.waitingFor;
    else note(e);
  });
  await manager.close().catch(note);
  return { ms: performance.now() - t0, peersStillRunning, errors };
}
