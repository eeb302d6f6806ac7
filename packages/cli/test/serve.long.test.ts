/*
 * Issue 30's end-to-end run: five `critsec node --serve` members over mutual TLS on loopback
 * (Maekawa with fencing tokens and quorum reselection), client processes — two in Node, one in
 * Python's standard library over HTTP — incrementing a counter behind a fencing-aware store under
 * one lock name: exactly the expected count, no write refused. Then a client holding the lock is
 * SIGKILLed: its session expires and the others go on. Then a member gets SIGTERM: it exits 0,
 * and the four remaining members — those whose quorum avoids it and those whose quorum held it
 * (reselected around it) — are ready again and keep granting. Every wait is bounded by progress
 * (`noProgressMs()`: output of any process, or the counter moving).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLocalCluster } from '@critsec/cluster';
import { waitForProgress } from '@critsec/testing';
import { freeLoopbackPorts } from '@critsec/transport-tcp/setup';
import { afterAll, describe, expect, it } from 'vitest';
import { type CounterFile, NODE_CLIENT, PYTHON_CLIENT } from './serve-clients.js';

const BIN = fileURLToPath(new URL('../bin/critsec.js', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'critsec-serve-e2e-'));
const children: ChildProcess[] = [];
let output = 0; // bytes printed by every process: progress
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
});

const python = (() => {
  try {
    execFileSync('python3', ['--version']);
    return 'python3';
  } catch {
    return undefined;
  }
})();

interface Proc {
  readonly child: ChildProcess;
  text: string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function spawnProc(cmd: string, args: string[]): Proc {
  const child = spawn(cmd, args, {
    env: { ...process.env, CRITSEC_FROM_SOURCE: '1', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const p: Proc = {
    child,
    text: '',
    exited: new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal }))),
  };
  const take = (d: Buffer) => {
    p.text += d.toString();
    output += d.length;
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  return p;
}

const counterFile = join(tmp, 'counter.json');
const counter = (): CounterFile => JSON.parse(readFileSync(counterFile, 'utf8')) as CounterFile;

/** Waits for `cond` (sync or async), failing only after no process printed and the counter stood still for `noProgressMs()`. */
async function until(cond: () => boolean | Promise<boolean>, what: string): Promise<void> {
  let ok = false;
  let busy = false;
  await waitForProgress(
    () => {
      if (!busy && !ok) {
        busy = true;
        void Promise.resolve()
          .then(cond)
          .then(
            (r) => (ok = r),
            () => {},
          )
          .finally(() => (busy = false));
      }
      return ok;
    },
    {
      what,
      measure: () => `${output}/${readFileSync(counterFile, { encoding: 'utf8', flag: 'a+' })}`,
      pollMs: 50,
    },
  );
}

async function exited(p: Proc, what: string) {
  let done: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  void p.exited.then((e) => (done = e));
  await until(() => done !== undefined, what);
  return done!;
}

async function status(port: number, path: string): Promise<number> {
  return (await fetch(`http://127.0.0.1:${port}${path}`)).status;
}

describe('critsec node --serve: five members, clients in Node and Python', () => {
  it('exact count under one lock; a killed holder’s session expires; a member leaves on SIGTERM and the four others go on', async () => {
    const loaded = await createLocalCluster({
      dir: join(tmp, 'cluster'),
      n: 5,
      algorithm: 'mutex',
      params: { coterie: 'majority', fencing: true, reselect: 'on' },
      workload: { rounds: 1 },
    });
    const ports = await freeLoopbackPorts(5);
    const members = ports.map((port, id) =>
      spawnProc(process.execPath, [
        BIN,
        'node',
        '--config',
        loaded.path,
        '--id',
        String(id),
        '--serve',
        `127.0.0.1:${port}`,
      ]),
    );
    for (const port of ports)
      await until(async () => (await status(port, '/readyz')) === 200, `member on ${port} ready`);
    for (const m of members) expect(m.text).toMatch(/\(majority n=5, fencing tokens, quorum reselection\)/);
    writeFileSync(counterFile, JSON.stringify({ value: 0, token: 0, refused: 0 }));
    writeFileSync(join(tmp, 'client.mjs'), NODE_CLIENT);
    writeFileSync(join(tmp, 'client.py'), PYTHON_CLIENT);
    // the victim's session ttl: how long the others wait for its lock after the kill; the clients
    // that live keep theirs for an hour, so a slow machine cannot expire one under them
    const victimTtl = 1_500;
    const liveTtl = 3_600_000;
    const client = (member: number, rounds: number, lang: 'node' | 'python' = 'node', ttl = liveTtl) =>
      lang === 'python'
        ? spawnProc(python!, [
            join(tmp, 'client.py'),
            String(ports[member]),
            String(rounds),
            counterFile,
            String(ttl),
          ])
        : spawnProc(process.execPath, [
            join(tmp, 'client.mjs'),
            String(ports[member]),
            String(rounds),
            counterFile,
            String(ttl),
          ]);
    const R = 10;
    if (python === undefined) console.log('python3 not found: the Python client is replaced by a Node one');
    const lang = python === undefined ? 'node' : 'python';

    // 1. three clients, one per member, R rounds each
    const first = [client(0, R), client(1, R), client(2, R, lang)];
    for (const [i, c] of first.entries())
      expect(await exited(c, `client ${i}`), c.text).toEqual({ code: 0, signal: null });
    expect(counter()).toMatchObject({ value: 3 * R, refused: 0 });

    // 2. a client holding the lock is SIGKILLed; the others wait for its session to expire, then go on
    const victim = client(1, -1, 'node', victimTtl);
    await until(() => victim.text.includes('HOLDING'), 'the victim holds the lock');
    const second = [client(0, R), client(2, R, lang)];
    victim.child.kill('SIGKILL');
    for (const [i, c] of second.entries())
      expect(await exited(c, `client ${i} after the kill`), c.text).toEqual({ code: 0, signal: null });
    expect(counter()).toMatchObject({ value: 5 * R, refused: 0 });
    const metrics = await (await fetch(`http://127.0.0.1:${ports[1]}/metrics`)).text();
    expect(metrics).toMatch(/critsec_service_sessions_expired_total\{member="1"\} 1/);

    // 3. SIGTERM of member 2: it exits 0; the four others are ready again and keep granting — those
    // whose quorum held P2 reselected around it once they suspect it (at once: it said it leaves)
    members[2]!.child.kill('SIGTERM');
    expect(await exited(members[2]!, 'member 2 shutting down'), members[2]!.text).toEqual({
      code: 0,
      signal: null,
    });
    expect(members[2]!.text).toMatch(/P2: shut down in [\d.]+ s: every session ended, every grant released/);
    const rest = [0, 1, 3, 4];
    for (const id of rest)
      await until(async () => (await status(ports[id]!, '/readyz')) === 200, `member ${id} ready`);
    const details = await Promise.all(
      rest.map(
        async (id) =>
          ((await (await fetch(`http://127.0.0.1:${ports[id]}/readyz`)).json()) as { detail: string }).detail,
      ),
    );
    expect(
      details.filter((d) => d.includes('(reselected: P2 suspected)')).length,
      details.join('; '),
    ).toBeGreaterThan(0);
    const third = [client(0, R / 2), client(1, R / 2), client(3, R / 2, lang)];
    for (const [i, c] of third.entries())
      expect(await exited(c, `client ${i} after the leave`), c.text).toEqual({
        code: 0,
        signal: null,
      });
    expect(counter()).toMatchObject({ value: 5 * R + 3 * (R / 2), refused: 0 });

    for (const id of rest) members[id]!.child.kill('SIGTERM');
    for (const id of rest)
      expect(await exited(members[id]!, `member ${id} shutting down`), members[id]!.text).toEqual({
        code: 0,
        signal: null,
      });
  });
});
