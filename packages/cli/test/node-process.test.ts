/*
 * `critsec node` as an operator runs it under a supervisor: a spawned bin whose every wait has a
 * deadline and which ends by itself — a typed one-line error and a documented exit code — when
 * the peers never come up or its configuration names files that are not there (issue 15).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLocalCluster } from '@critsec/cluster';
import { noProgressMs } from '@critsec/testing';
import { freeLoopbackPorts } from '@critsec/transport-tcp/setup';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT, main } from '../src/index.js';
import { parseMetricsAddress, runNodeCommand } from '../src/node.js';

const BIN = fileURLToPath(new URL('../bin/critsec.js', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'critsec-node-process-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const tempDir = () => mkdtempSync(join(tmp, 'd'));

/** Runs the `critsec` bin (from source) to its end; a process still alive after `noProgressMs()` (a hang) is killed (code -1). */
function spawnCli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      {
        env: { ...process.env, CRITSEC_FROM_SOURCE: '1', NO_COLOR: '1' },
        timeout: noProgressMs(),
        killSignal: 'SIGKILL',
      },
      (err, stdout, stderr) => {
        const code = err === null ? 0 : typeof err.code === 'number' ? err.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A 2-member loopback configuration whose member 1 never starts. */
async function lonelyConfig(extra: object = {}): Promise<string> {
  const dir = tempDir();
  const ports = await freeLoopbackPorts(2);
  const file = join(dir, 'cluster.json');
  writeFileSync(
    file,
    JSON.stringify({
      version: 1,
      n: 2,
      insecure: true,
      processes: ports.map((port, id) => ({ id, host: '127.0.0.1', port })),
      algorithm: 'mutex',
      params: { coterie: 'majority' },
      workload: { rounds: 1 },
      log: 'shared.log',
      readyTimeoutMs: 500,
      ...extra,
    }),
  );
  return file;
}

describe('critsec node (spawned bin)', () => {
  it('peers that never come up: a one-line TransportError and exit 1, and the process ends by itself', async () => {
    const r = await spawnCli('node', '--config', await lonelyConfig(), '--id', '0');
    expect(r.code).toBe(EXIT.failed);
    const lines = r.stderr.trim().split('\n');
    expect(lines.at(-1)).toBe('critsec: P0 is not connected to P1 after 500 ms');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stderr).not.toContain('still open'); // ended by itself, not by the bin's safety net
  });

  it('a missing key file: a ConfigurationError naming the file and the key, exit 78 (EX_CONFIG)', async () => {
    const dir = tempDir();
    const loaded = await createLocalCluster({ dir, n: 2, algorithm: 'mutex', workload: { rounds: 1 } });
    const raw = JSON.parse(JSON.stringify(loaded.config)) as { processes: { key?: string }[] };
    raw.processes[0]!.key = 'nowhere/p0.key.pem';
    writeFileSync(loaded.path, JSON.stringify(raw));
    const r = await spawnCli('node', '--config', loaded.path, '--id', '0');
    expect(r.code).toBe(EXIT.config);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('processes[0].key');
    expect(r.stderr).toContain(join(dir, 'nowhere/p0.key.pem'));
    expect(r.stderr).not.toMatch(/^Error: ENOENT/m);
  });
});

/** Runs `main` in this process with captured stdout / stderr. */
async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
  });
  return { code, stdout, stderr };
}

describe('critsec node (in process)', () => {
  it('the configuration file is exit 78, the command line exit 2', async () => {
    const missing = await run('node', '--config', join(tmp, 'missing.json'), '--id', '0');
    expect(missing.code).toBe(EXIT.config);
    expect(missing.stderr).toMatch(/^critsec: cannot read cluster config .*missing\.json: ENOENT/);
    const reset = await run(
      'node',
      '--config',
      await lonelyConfig({ transport: { onPeerRestart: 'reset' } }),
      '--id',
      '0',
    );
    expect(reset.code).toBe(EXIT.config);
    expect(reset.stderr).toContain("transport.onPeerRestart: 'reset' is refused for mutex");
    const id = await run('node', '--config', await lonelyConfig(), '--id', 'zero');
    expect(id.code).toBe(EXIT.usage);
    expect(id.stderr).toContain("--id must be an integer ≥ 0, got 'zero'");
    for (const r of [missing, reset, id]) expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('prints one line when ready, at every tenth of its rounds and when done — not one per message', async () => {
    const path = await lonelyConfig({
      readyTimeoutMs: noProgressMs(),
      workload: { rounds: 20, thinkMs: 0, holdMs: 0 },
    });
    const lines: string[][] = [[], []];
    const reports = await Promise.all(
      [0, 1].map((id) => runNodeCommand(path, String(id), { write: (l) => lines[id]!.push(l) })),
    );
    expect(reports.map((r) => r.cli.entries)).toEqual([20, 20]);
    for (const [id, ls] of lines.entries()) {
      const own = ls.filter((l) => !l.includes('insecure mode'));
      expect(own[0]).toMatch(
        new RegExp(`^P${id}: connected to its 1 peer after [\\d.]+ s; running 20 rounds$`),
      );
      expect(own.filter((l) => / round \d+\/20 /.test(l)).map((l) => l.split(' ')[2])).toEqual([
        '2/20',
        '4/20',
        '6/20',
        '8/20',
        '10/20',
        '12/20',
        '14/20',
        '16/20',
        '18/20',
      ]);
      expect(own.at(-1)).toMatch(
        new RegExp(`^P${id}: finished its 20 rounds after [\\d.]+ s; waiting for the other members$`),
      );
      expect(own).toHaveLength(11);
    }
  });

  it('--metrics: serves the member’s Prometheus metrics over HTTP while it runs (issue 29); a bad address is exit 2', async () => {
    const bad = await run('node', '--config', await lonelyConfig(), '--id', '0', '--metrics', 'host:port');
    expect(bad.code).toBe(EXIT.usage);
    expect(bad.stderr).toMatch(/--metrics must be \[host:\]port/);
    const path = await lonelyConfig({ readyTimeoutMs: noProgressMs(), workload: { rounds: 5 } });
    // member 0 serves as soon as it starts; member 1 is started only once it was scraped
    let listening!: (url: string) => void;
    const url = new Promise<string>((r) => {
      listening = r;
    });
    const first = runNodeCommand(
      path,
      '0',
      {
        write: (l) => {
          const m = /^P0: metrics at (\S+)$/.exec(l);
          if (m !== null) listening(m[1]!);
        },
      },
      { metrics: '127.0.0.1:0' },
    );
    const text = await (await fetch(await url)).text();
    const second = runNodeCommand(path, '1', { write: () => {} });
    const reports = await Promise.all([first, second]);
    expect(reports.map((r) => r.cli.entries)).toEqual([5, 5]);
    const lines = text.split('\n');
    expect(lines.some((l) => l.startsWith('process_cpu_user_seconds_total'))).toBe(true);
    expect(lines.some((l) => l.startsWith('nodejs_heap_size_used_bytes'))).toBe(true);
    expect(lines).toContain('# TYPE critsec_messages_sent_total counter');
    expect(lines).toContain('critsec_in_cs{member="0"} 0');
    // before its peer ever connected: it is not up yet
    expect(lines.filter((l) => l.startsWith('critsec_peers_up{'))).toHaveLength(1);
  });
  it('parses --metrics [host:]port and refuses anything else', () => {
    expect(parseMetricsAddress('9464')).toEqual({ port: 9464 });
    expect(parseMetricsAddress('0.0.0.0:9464')).toEqual({ port: 9464, host: '0.0.0.0' });
    expect(parseMetricsAddress('[::1]:0')).toEqual({ port: 0, host: '::1' });
    for (const bad of ['', 'x', '70000', ':9464', '1.5', '-1'])
      expect(() => parseMetricsAddress(bad), bad).toThrow(/--metrics must be \[host:\]port/);
  });
});
