import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { noProgressMs } from '@critsec/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT, main, type RunSummary } from '../src/index.js';

const BIN = fileURLToPath(new URL('../bin/critsec.js', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'critsec-cli-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

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

/** Runs the `critsec` bin as a separate process (from source, through tsx). */
function spawnCli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: tmp, env: { ...process.env, CRITSEC_FROM_SOURCE: '1', NO_COLOR: '1' }, timeout: noProgressMs() },
      (err, stdout, stderr) => {
        const code = err === null ? 0 : typeof err.code === 'number' ? err.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** The documented `--json` fields (summary.ts): the list and the additions. */
const FIELDS = [
  'algorithm',
  'n',
  'l',
  'k',
  'coterie',
  'coterieDescription',
  'quorumSize',
  'mx',
  'rounds',
  'seed',
  'delay',
  'workload',
  'think',
  'hold',
  'timeUnit',
  'initial',
  'entries',
  'exits',
  'safetyViolations',
  'violation',
  'ok',
  'failure',
  'messages',
  'waitingTime',
  'bounds',
  'boundsMet',
  'simulatedTime',
  'wallMs',
  'messagesPerSecond',
  'replay',
  'problem',
  'structure',
  'parameters',
  'request',
  'concurrency',
  'performance',
].sort();

describe('critsec (in process)', () => {
  it('simulate --json prints exactly one JSON document with the documented fields', async () => {
    const r = await run(
      'simulate',
      'gcs',
      '--n',
      '9',
      '--l',
      '2',
      '--k',
      '5',
      '--rounds',
      '2',
      '--workload',
      'sequential',
      '--json',
    );
    expect(r.code).toBe(EXIT.ok);
    expect(r.stderr).toBe('');
    const s = JSON.parse(r.stdout) as RunSummary;
    expect(Object.keys(s).sort()).toEqual(FIELDS);
    expect(s).toMatchObject({
      algorithm: 'gcs',
      n: 9,
      rounds: 2,
      seed: 1,
      delay: 'unit',
      workload: 'sequential',
      l: 2,
      k: 5,
      coterie: 'grid',
      quorumSize: { min: 5, max: 5 },
      entries: 18,
      exits: 18,
      safetyViolations: 0,
    });
    expect(Object.keys(s.messages).sort()).toEqual(['byType', 'perPair', 'total']);
    expect(Object.keys(s.messages.perPair).sort()).toEqual(['max', 'mean', 'p99']);
    expect(Object.keys(s.waitingTime.entry).sort()).toEqual(['max', 'mean']);
    expect(Object.keys(s.waitingTime.exit).sort()).toEqual(['max', 'mean']);
    expect(s.bounds).toMatchObject({ messagesPerPair: 90, waitingTimeEntry: 9, waitingTimeExit: 9 });
    expect(typeof s.simulatedTime).toBe('number');
    expect(typeof s.wallMs).toBe('number');
    // the run's CPU time (process.cpuUsage): delivered messages / CPU-seconds, peak RSS in bytes
    const p = s.performance!;
    expect(p.cpuSeconds).toBeGreaterThan(0);
    expect(p.messagesPerCpuSecond).toBeCloseTo(s.messages.total / p.cpuSeconds, 6);
    expect(p.rssBytes).toBeGreaterThan(2 ** 20);
  });

  it('prints the human table with the bounds by default', async () => {
    const r = await run('simulate', 'mutex', '--n', '9', '--rounds', '1', '--workload', 'sequential');
    expect(r.code).toBe(EXIT.ok);
    expect(r.stdout).toContain('safety violations');
    expect(r.stdout).toMatch(
      /messages per exit\+entry pair \(mean \/ p99 \/ max\) │ 15 \/ 15 \/ 15 +│ ≤ 15 = 3\|Q\| +│ met/,
    );
    expect(r.stdout).toContain('initial configuration: every process OutCS (default: the first l InCS)');
  });

  it('writes a JSON-lines trace with --trace', async () => {
    const file = join(tmp, 'trace.jsonl');
    const r = await run('simulate', 'mutex', '--n', '3', '--rounds', '1', '--trace', file, '--json');
    expect(r.code).toBe(EXIT.ok);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    const events = lines.map((l) => (JSON.parse(l) as { e: string }).e);
    expect(events).toContain('send');
    expect(events).toContain('deliver');
    expect(events.filter((e) => e === 'note')).toHaveLength(6); // 3 entries + 3 exits
  });

  it.each([
    [['simulate', 'gcs', '--l', '5', '--k', '5'], '--l must be smaller than --k'],
    [['simulate', 'gcs', '--n', '0'], "--n must be an integer ≥ 1, got '0'"],
    [
      ['simulate', 'dijkstra'],
      "unknown algorithm 'dijkstra'; accepted: mutex, ricart-agrawala, mutin, kmutex, gcs",
    ],
    [['simulate', 'gcs', '--coterie', 'hexagon'], "unknown coterie 'hexagon'"],
    [
      ['simulate', 'mutex', '--coterie', 'projective-plane', '--n', '43'],
      'q = 6, which is not a prime power',
    ],
    [['simulate', 'gcs', '--bogus'], "unknown option '--bogus'"],
    [['simulate'], "missing required argument 'algorithm'"],
    [['bench', '--coteries', 'grid,nope'], "unknown coterie 'nope'"],
    // refused before anything is built (a grid this size would take hours and tens of GiB)
    [['simulate', 'mutex', '--n', '200000'], "more than this process's heap limit"],
    [['bench', '--n', '16,1000000', '--quick'], '--n 1000000 with Ricart–Agrawala'],
    // issue 15: these were a raw RangeError (exit 1) and V8 heap-out-of-memory crashes (exit 134)
    [
      ['simulate', 'group-mutex', '--n', '200000'],
      '--n 200000 with the surficial 2-group system: 200,000 processes and about ',
    ],
    [
      ['simulate', 'h-out-of-k', '--n', '200000'],
      '--n 200000 with the uniform (h,k)-arbiter, k = 3: 200,000 processes and about ',
    ],
    [
      ['simulate', 'local-cs', '--graph', 'complete:20000'],
      '--graph complete:20000 (n = 20000) with the local CS',
    ],
    [['simulate', 'local-cs', '--graph', 'random:100000:0.5'], 'heap limit of'],
    [['cluster', 'gcs', '--n', '5', '--workload', 'bursty'], 'accepted: concurrent, sequential'],
    [['frobnicate'], "unknown command 'frobnicate'"],
  ])('%j → exit 2 and one line naming what is accepted', async (argv, expected) => {
    const r = await run(...argv);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(expected);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('a malformed cluster configuration → exit 78, one line naming the field', async () => {
    const file = join(tmp, 'bad-cluster.json');
    writeFileSync(file, JSON.stringify({ version: 1, n: 2, processes: [{ id: 0, host: 'a', port: 1 }] }));
    const r = await run('node', '--config', file, '--id', '0');
    expect(r.code).toBe(EXIT.config);
    expect(r.stderr).toMatch(/^critsec: cluster config: [a-z]/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    writeFileSync(file, '{ not json');
    const r2 = await run('node', '--config', file, '--id', '0');
    expect(r2.code).toBe(EXIT.config);
    expect(r2.stderr).toContain('cannot read cluster config');
  });

  it('a cluster configuration critsec cannot run → exit 78 before any connection', async () => {
    const file = join(tmp, 'cluster.json');
    const config = (extra: object) => ({
      version: 1,
      n: 3,
      ca: 'ca.pem',
      processes: [0, 1, 2].map((id) => ({
        id,
        host: '127.0.0.1',
        port: 7400 + id,
        cert: `p${id}.pem`,
        key: `k${id}.pem`,
      })),
      algorithm: 'gcs',
      params: { l: 1, k: 2 },
      workload: { rounds: 1 },
      log: 'shared.log',
      ...extra,
    });
    writeFileSync(file, JSON.stringify(config({ algorithm: 'paxos' })));
    const a = await run('node', '--config', file, '--id', '0');
    expect(a.code).toBe(EXIT.config);
    expect(a.stderr).toContain(
      "unknown algorithm 'paxos'; accepted: mutex, ricart-agrawala, mutin, kmutex, gcs",
    );
    writeFileSync(file, JSON.stringify(config({})));
    const b = await run('node', '--config', file, '--id', '0');
    expect(b.code).toBe(EXIT.config);
    expect(b.stderr).toContain(
      'initial: 0 process(es) InCS is not a safe initial configuration for the (1,2)-CS',
    );
    writeFileSync(
      file,
      JSON.stringify(config({ initial: ['InCS', 'OutCS', 'OutCS'], bounds: { l: 0, k: 2 } })),
    );
    const c = await run('node', '--config', file, '--id', '0');
    expect(c.code).toBe(EXIT.config);
    expect(c.stderr).toContain('bounds (l = 0, k = 2) differ');
    writeFileSync(
      file,
      JSON.stringify(config({ initial: ['InCS', 'OutCS', 'OutCS'], params: { l: 1, k: 2, q: 3 } })),
    );
    const d = await run('node', '--config', file, '--id', '0');
    expect(d.code).toBe(EXIT.config);
    expect(d.stderr).toContain("gcs takes no parameter 'q'; it takes l, k, coterie, mx, init");
    for (const r of [a, b, c, d]) expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('--help for every command, exit 0', async () => {
    for (const cmd of ['simulate', 'bench', 'cluster', 'node', 'certs']) {
      const r = await run(cmd, '--help');
      expect(r.code).toBe(EXIT.ok);
      expect(r.stdout).toContain(`Usage: critsec ${cmd}`);
    }
    const top = await run('--help');
    expect(top.stdout).toMatch(/simulate[\s\S]*bench[\s\S]*cluster[\s\S]*node/);
    expect((await run()).code).toBe(EXIT.usage);
  });
});

describe('critsec (spawned bin)', () => {
  it('simulate --json: stdout is the JSON summary and nothing else; exit 0', async () => {
    const r = await spawnCli('simulate', 'kmutex', '--n', '7', '--k', '3', '--rounds', '2', '--json');
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout) as RunSummary;
    expect(s).toMatchObject({
      algorithm: 'kmutex',
      n: 7,
      l: 0,
      k: 3,
      entries: 14,
      exits: 14,
      safetyViolations: 0,
    });
  });

  it('invalid input: exit 2 and a one-line message, no stack trace', async () => {
    const r = await spawnCli('simulate', 'gcs', '--n', '25', '--l', '10', '--k', '3');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim()).toBe(
      'critsec: --l must be smaller than --k: the (l,k)-CS needs 0 ≤ l < k ≤ n; got l = 10, k = 3 (n = 25)',
    );
  });
});
