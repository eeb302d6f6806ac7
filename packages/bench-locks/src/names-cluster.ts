/**
 * The critsec side of the "1,000 names" scenario: n `@critsec/locks` members over mutual TLS
 * 1.3 on loopback with the addresses of a `createLocalCluster` configuration and the run's
 * certificates — as n OS processes (`bench/names-member.ts`, forked with `--expose-gc`, driven
 * over IPC: the benchmark) or in this process (the package's test, where five processes would
 * cost more CPU than a short test may). Either way this process runs a phase on every member at
 * once, then reads every member's memory.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLocalCluster } from '@critsec/cluster';
import { TransportError } from '@critsec/core';
import { BENCH_ALGORITHM, maekawaGrid } from './algorithm.js';
import type { Certificates } from './critsec-clusters.js';
import {
  type MemberMemory,
  type MemberPhase,
  type NamesCommand,
  type NamesReply,
  startNamesMember,
} from './names-member.js';
import type { NamesPhase } from './names-workload.js';

const MEMBER_ENTRY = fileURLToPath(new URL('../bench/names-member.ts', import.meta.url));

/** n lock-manager members. */
export interface NamesCluster {
  readonly n: number;
  /** Runs `phase` on every member, `clientsPerMember` clients each (member i's are i·c … i·c + c − 1). */
  run(phase: NamesPhase, clientsPerMember: number): Promise<MemberPhase[]>;
  /** Every member's memory after reclaiming its idle names and a full GC. */
  memory(): Promise<MemberMemory[]>;
  /** Closes every member (together: a transport's close lingers until its peers have left). */
  close(): Promise<void>;
}

/** How {@link startNamesCluster} runs the members. */
export interface NamesClusterOptions {
  /** How long a member waits for its peers to connect, ms (default 60 000). */
  readonly readyTimeoutMs?: number;
  /** The members in this process instead of one OS process each (default false). */
  readonly inProcess?: boolean;
}

/** One member as this process sees it. */
interface MemberHandle {
  call(command: NamesCommand): Promise<MemberPhase | MemberMemory | null>;
  /** Resolves once the member has ended (at once for an in-process member). */
  readonly ended: Promise<void>;
  /** Ends the member at once (SIGKILL; nothing for an in-process member). */
  kill(): void;
}

/** Member `id` as a forked OS process; `ready` resolves once it is connected to every peer. */
function forkMember(
  configPath: string,
  id: number,
  readyTimeoutMs: number,
  stderr: string[],
): { member: MemberHandle; ready: Promise<void> } {
  const args = ['--config', configPath, '--id', String(id), '--ready-ms', String(readyTimeoutMs)];
  const child = fork(MEMBER_ENTRY, args, {
    execArgv: ['--expose-gc', '--conditions=@critsec/source', '--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  child.stderr?.on('data', (b: Buffer) => {
    if (stderr.length < 40) stderr.push(`P${id}: ${b.toString().trimEnd()}`);
  });
  const pending = new Map<
    number,
    { resolve(x: MemberPhase | MemberMemory | null): void; reject(e: Error): void }
  >();
  let exited: Error | undefined;
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    child.on('message', (m: NamesReply | { type: 'ready' }) => {
      if (m.type === 'ready') return resolve();
      const p = pending.get(m.seq);
      pending.delete(m.seq);
      if (m.type === 'reply') p?.resolve(m.result);
      else p?.reject(new TransportError(`names member P${id}: ${m.message}`));
    });
    child.once('exit', (code, signal) => {
      exited = new TransportError(
        `names member P${id} exited (${signal ?? `code ${code}`})\n${stderr.join('\n')}`,
      );
      reject(exited);
      for (const p of pending.values()) p.reject(exited);
      pending.clear();
    });
  });
  const member: MemberHandle = {
    call: (command) =>
      new Promise((resolve, reject) => {
        if (exited) return reject(exited);
        pending.set(command.seq, { resolve, reject });
        child.send(command);
      }),
    ended,
    kill: () => {
      if (exited === undefined) child.kill('SIGKILL');
    },
  };
  return { member, ready };
}

/** Member `id` in this process (one of `n` sharing it). */
async function localMember(
  configPath: string,
  id: number,
  n: number,
  readyTimeoutMs: number,
): Promise<MemberHandle> {
  const m = await startNamesMember(configPath, id, { readyTimeoutMs, perProcess: n });
  return { call: (command) => m.handle(command), ended: Promise.resolve(), kill: () => {} };
}

/** A command without its sequence number. */
type Command = NamesCommand extends infer C ? (C extends { seq: number } ? Omit<C, 'seq'> : never) : never;

/**
 * Starts n members with the certificates `certs` (process i's for member i) and resolves once
 * every member is connected to every peer (a member not connected within `readyTimeoutMs`
 * gives up: an OS-process member exits, which rejects this).
 * @throws TransportError when a member fails before it is ready.
 */
export async function startNamesCluster(
  n: number,
  certs: Certificates,
  options: NamesClusterOptions = {},
): Promise<NamesCluster> {
  const readyTimeoutMs = options.readyTimeoutMs ?? 60_000;
  const dir = mkdtempSync(join(tmpdir(), 'critsec-bench-names-'));
  const members: MemberHandle[] = [];
  let seq = 0;
  const all = <T>(command: Command | ((id: number) => Command)) =>
    Promise.all(
      members.map(
        (m, id) =>
          m.call({
            ...(typeof command === 'function' ? command(id) : command),
            seq: ++seq,
          } as NamesCommand) as Promise<T>,
      ),
    );
  try {
    const alg = maekawaGrid(n);
    const { path } = await createLocalCluster({
      dir,
      n,
      algorithm: BENCH_ALGORITHM,
      params: alg.params,
      workload: { rounds: 1 },
      certificateDir: certs.dir,
    });
    if (options.inProcess === true) {
      members.push(
        ...(await Promise.all(
          Array.from({ length: n }, (_, id) => localMember(path, id, n, readyTimeoutMs)),
        )),
      );
    } else {
      const stderr: string[] = [];
      const started = Array.from({ length: n }, (_, id) => forkMember(path, id, readyTimeoutMs, stderr));
      members.push(...started.map((s) => s.member));
      await Promise.all(started.map((s) => s.ready));
    }
  } catch (err) {
    for (const m of members) m.kill();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    n,
    run: (phase, clientsPerMember) =>
      all<MemberPhase>((id) => ({
        cmd: 'run',
        phase,
        firstClient: id * clientsPerMember,
        clients: clientsPerMember,
      })),
    memory: () => all<MemberMemory>({ cmd: 'memory' }),
    async close() {
      try {
        await all<null>({ cmd: 'close' });
        await Promise.all(members.map((m) => m.ended));
      } finally {
        for (const m of members) m.kill();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
