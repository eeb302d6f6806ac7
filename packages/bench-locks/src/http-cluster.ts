/**
 * The critsec side of the HTTP scenario: n members as lock services over mutual TLS 1.3 on
 * loopback — a `createLocalCluster` configuration (algorithm `mutex`, the majority coterie,
 * fencing tokens: what `deploy/` configures) with the run's certificates — each serving the HTTP
 * API on a loopback port: as n OS processes `critsec node --config … --id i --serve
 * 127.0.0.1:<port>` (the `critsec` command of `@critsec/cli`, run from source: the benchmark), or
 * as n `startLockMember`s of `@critsec/service` in this process (the package's test, where five
 * processes would cost more CPU than a short test may). Started once every member answers
 * `/readyz` 200.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createLocalCluster } from '@critsec/cluster';
import { TransportError } from '@critsec/core';
import { type LockMember, startLockMember } from '@critsec/service';
import { freeLoopbackPorts } from '@critsec/transport-tcp/setup';
import type { Certificates } from './critsec-clusters.js';
import { httpReady } from './http-lock.js';

const require = createRequire(import.meta.url);

/** The `critsec` command's program (`bin/critsec.js` of `@critsec/cli`). */
const critsecBin = () => join(dirname(require.resolve('@critsec/cli/package.json')), 'bin', 'critsec.js');

/** The cluster's parameters: Maekawa per name over the majority coterie, with fencing tokens. */
export const HTTP_PARAMS = { coterie: 'majority', fencing: true } as const;

/** n lock services. */
export interface HttpCluster {
  /** Member i's HTTP port on 127.0.0.1. */
  readonly ports: readonly number[];
  /** The members' process ids (this process's for in-process members). */
  readonly pids: readonly number[];
  /** Shuts every member down gracefully (SIGTERM, or `shutdown()` in process) and waits for it. */
  close(): Promise<void>;
}

/** How {@link startHttpCluster} runs the members. */
export interface HttpClusterOptions {
  /** How long to wait for every member's `/readyz`, ms (default 180 000: five members start from source under tsx). */
  readonly readyTimeoutMs?: number;
  /** The members in this process instead of one OS process each (default false). */
  readonly inProcess?: boolean;
}

/** `critsec node --serve` as an OS process, its stderr kept (the first 40 chunks) for the error of a member that dies. */
function spawnMember(configPath: string, id: number, port: number, stderr: string[]): ChildProcess {
  const child = spawn(
    process.execPath,
    [critsecBin(), 'node', '--config', configPath, '--id', String(id), '--serve', `127.0.0.1:${port}`],
    { env: { ...process.env, CRITSEC_FROM_SOURCE: '1', NO_COLOR: '1' }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  child.stderr?.on('data', (b: Buffer) => {
    if (stderr.length < 40) stderr.push(`P${id}: ${b.toString().trimEnd()}`);
  });
  return child;
}

/**
 * Polls every port's `/readyz` until all answer 200.
 * @throws TransportError past `timeoutMs` (with `detail()`), or when `failed()` says why.
 */
async function allReady(
  ports: readonly number[],
  timeoutMs: number,
  failed: () => string | undefined,
  detail: () => string = () => '',
) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const why = failed();
    if (why !== undefined) throw new TransportError(why);
    if ((await Promise.all(ports.map(httpReady))).every(Boolean)) return;
    if (performance.now() > deadline)
      throw new TransportError(
        `lock services on ${ports.join(', ')} not all ready after ${timeoutMs} ms\n${detail()}`,
      );
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Starts n members with the run's certificates and waits until every one is ready.
 * @throws TransportError when a member exits or the members are not ready within `readyTimeoutMs`.
 */
export async function startHttpCluster(
  n: number,
  certs: Certificates,
  options: HttpClusterOptions = {},
): Promise<HttpCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'critsec-bench-http-'));
  const { path } = await createLocalCluster({
    dir,
    n,
    algorithm: 'mutex',
    params: HTTP_PARAMS,
    workload: { rounds: 0 },
    certificateDir: certs.dir,
  });
  const timeoutMs = options.readyTimeoutMs ?? 180_000;
  if (options.inProcess === true) {
    const members: LockMember[] = [];
    for (let id = 0; id < n; id++)
      members.push(await startLockMember({ configPath: path, id, serve: '127.0.0.1:0' }));
    const ports = members.map((m) =>
      m.service.address.kind === 'tcp' ? m.service.address.port : Number.NaN,
    );
    const close = async () => {
      await Promise.all(members.map((m) => m.shutdown()));
      rmSync(dir, { recursive: true, force: true });
    };
    await allReady(ports, timeoutMs, () => undefined).catch(async (e: unknown) => {
      await close();
      throw e;
    });
    return { ports, pids: members.map(() => process.pid), close };
  }
  const ports = await freeLoopbackPorts(n);
  const stderr: string[] = [];
  const children = ports.map((port, id) => spawnMember(path, id, port, stderr));
  let closing = false;
  const exits = children.map((c) => new Promise<void>((resolve) => c.once('exit', () => resolve())));
  let died: string | undefined;
  for (const [id, c] of children.entries())
    c.once('exit', (code, signal) => {
      if (!closing) died ??= `lock service P${id} exited (${signal ?? `code ${code}`})\n${stderr.join('\n')}`;
    });
  const close = async () => {
    closing = true;
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
    await Promise.all(exits);
    rmSync(dir, { recursive: true, force: true });
  };
  await allReady(
    ports,
    timeoutMs,
    () => died,
    () => stderr.join('\n'),
  ).catch(async (e: unknown) => {
    await close();
    throw e;
  });
  return { ports, pids: children.map((c) => c.pid!), close };
}
