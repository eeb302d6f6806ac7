/**
 * A member of the "1,000 names" scenario, in its own OS process (`bench/names-member.ts`): a
 * `tcpTransport` over mutual TLS with the cluster configuration's addresses and certificates,
 * and a `@critsec/locks` manager over it (defaults: Maekawa over majority for every name, idle
 * names reclaimed past 1,024 live ones). The parent drives it over IPC with
 * {@link NamesCommand}s and gets a {@link NamesReply} for each.
 */
import { loadClusterConfig, transportOptionsFor } from '@critsec/cluster';
import { ConfigurationError } from '@critsec/core';
import { createLockManager, type LockManager } from '@critsec/locks';
import { tcpTransport } from '@critsec/transport-tcp';
import type { TimedRound } from './stats.js';
import { type NamesPhase, runNamedClients } from './names-workload.js';

/** What the parent asks a member to do. */
export type NamesCommand =
  | {
      readonly cmd: 'run';
      readonly seq: number;
      readonly phase: NamesPhase;
      /** The global index of this member's first client (its clients are the next `clients`). */
      readonly firstClient: number;
      readonly clients: number;
    }
  | { readonly cmd: 'memory'; readonly seq: number }
  | { readonly cmd: 'close'; readonly seq: number };

/** The timed rounds of a member's clients and the CPU time (user + system, ms) the phase cost its process. */
export interface MemberPhase {
  readonly timed: TimedRound[][];
  readonly cpuMs: number;
}

/** A member's memory after reclaiming every idle name and a full GC. */
export interface MemberMemory {
  /** `process.memoryUsage().heapUsed`, bytes. */
  readonly heapUsed: number;
  /** `process.memoryUsage().rss`, bytes. */
  readonly rss: number;
  /** Names kept as their durable state (`manager.kept`). */
  readonly kept: number;
  /** Instances still live (0 unless a message kept reopening one). */
  readonly live: number;
}

/** A member's answer to the command `seq`. */
export type NamesReply =
  | { readonly type: 'reply'; readonly seq: number; readonly result: MemberPhase | MemberMemory | null }
  | { readonly type: 'error'; readonly seq: number; readonly message: string };

/** The rounds of reclaiming a member waits for its last instances to become idle (10 ms apart). */
const RECLAIM_TRIES = 3_000;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The running member: answers commands until `close`. */
export interface NamesMember {
  handle(command: NamesCommand): Promise<MemberPhase | MemberMemory | null>;
}

/** How a member runs. */
export interface NamesMemberOptions {
  /** How long it waits for every peer to connect, ms. */
  readonly readyTimeoutMs: number;
  /**
   * Members sharing this process (1: its own process, which must run with `--expose-gc`). With
   * more, the process's CPU time and memory are split evenly among them (their sum is then the
   * process's) and the full GC runs only where `gc` is exposed.
   */
  readonly perProcess?: number;
}

/**
 * Starts member `id` of the cluster configured at `configPath`: connects to every peer (waiting
 * up to `readyTimeoutMs`), then builds the manager.
 * @throws TransportError when the peers are not all connected in time; ConfigurationError for a
 *   configuration that cannot be read, or a member alone in its process without `--expose-gc`.
 */
export async function startNamesMember(
  configPath: string,
  id: number,
  options: NamesMemberOptions,
): Promise<NamesMember> {
  const share = 1 / (options.perProcess ?? 1);
  const loaded = loadClusterConfig(configPath);
  const transport = tcpTransport({ ...transportOptionsFor(loaded, id), logger: null, lingerMs: 0 });
  await transport.start();
  await transport.ready({ timeoutMs: options.readyTimeoutMs });
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined && share === 1)
    throw new ConfigurationError('names member: run node with --expose-gc');
  const manager: LockManager = createLockManager({ endpoint: transport.endpoint, id, n: loaded.config.n });
  const noop = () => {};
  const lock = (name: string) => manager.request(name, noop);

  async function memory(): Promise<MemberMemory> {
    for (let i = 0; i < RECLAIM_TRIES; i++) {
      manager.reclaimIdle();
      if (manager.live === 0) break;
      await sleep(10); // a RELEASE still on its way keeps an arbiter's instance busy
    }
    gc?.();
    const { heapUsed, rss } = process.memoryUsage();
    return { heapUsed: heapUsed * share, rss: rss * share, kept: manager.kept, live: manager.live };
  }

  return {
    async handle(c) {
      if (c.cmd === 'run') {
        const before = process.cpuUsage();
        const timed = await runNamedClients(c.phase, c.firstClient, c.clients, lock);
        const cpu = process.cpuUsage(before);
        return { timed, cpuMs: ((cpu.user + cpu.system) / 1000) * share };
      }
      if (c.cmd === 'memory') return memory();
      await manager.close();
      await transport.close();
      return null;
    },
  };
}
