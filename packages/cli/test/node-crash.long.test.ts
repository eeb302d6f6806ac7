/*
 * The operator's scenario of issue 15: three `critsec node` processes; one is SIGKILLed in the
 * middle of the run and restarted, as a supervisor would. critsec's algorithms have no crash
 * recovery, so nobody may go on as if nothing happened — and nobody may hang either: every
 * process ends by itself, exit 1, with one line naming the wait whose deadline expired.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLocalCluster } from '@critsec/cluster';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT } from '../src/index.js';

const BIN = fileURLToPath(new URL('../bin/critsec.js', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'critsec-node-crash-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
});

interface Member {
  readonly child: ChildProcess;
  stderr: string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function start(config: string, id: number): Member {
  const child = spawn(process.execPath, [BIN, 'node', '--config', config, '--id', String(id)], {
    env: { ...process.env, CRITSEC_FROM_SOURCE: '1', NO_COLOR: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  const m: Member = {
    child,
    stderr: '',
    exited: new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal }))),
  };
  child.stderr!.on('data', (d: Buffer) => {
    m.stderr += d.toString();
  });
  return m;
}

const until = async (cond: () => boolean, ms: number) => {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  return cond();
};

describe('critsec node: a member killed and restarted', () => {
  it('every process ends by itself with exit 1 and one line naming the expired wait', async () => {
    const loaded = await createLocalCluster({
      dir: tmp,
      n: 3,
      algorithm: 'mutex',
      params: { coterie: 'majority' },
      workload: { rounds: 100_000, thinkMs: 2, holdMs: 1 },
      insecure: true,
    });
    writeFileSync(
      loaded.path,
      JSON.stringify({
        ...loaded.config,
        readyTimeoutMs: 20_000,
        callTimeoutMs: 5_000,
        peerDownTimeoutMs: 2_000,
        transport: { heartbeatIntervalMs: 200, heartbeatTimeoutMs: 1_000 },
      }),
    );
    const members = [0, 1, 2].map((id) => start(loaded.path, id));
    expect(await until(() => members[2]!.stderr.includes('P2: connected'), 60_000)).toBe(true);
    await new Promise((r) => setTimeout(r, 500)); // in the middle of its rounds
    members[2]!.child.kill('SIGKILL');
    expect((await members[2]!.exited).signal).toBe('SIGKILL');
    // The supervisor restarts it: its peers refuse the new incarnation (no crash recovery).
    const restarted = start(loaded.path, 2);
    const outcomes = await Promise.all([members[0]!.exited, members[1]!.exited, restarted.exited]);
    expect(outcomes.map((o) => o.code)).toEqual([EXIT.failed, EXIT.failed, EXIT.failed]);
    const last = (m: Member) => m.stderr.trim().split('\n').at(-1);
    for (const id of [0, 1]) {
      expect(members[id]!.stderr).toContain(`P${id}: lost P2`);
      expect(last(members[id]!)).toMatch(
        new RegExp(
          `^critsec: P${id}: (P2 has been unreachable for 2000 ms \\(peerDownTimeoutMs\\)|entry\\(\\) of round \\d+ did not complete within 5000 ms \\(callTimeoutMs\\))`,
        ),
      );
    }
    // The restarted P2 accepts its peers' first hellos (it knows no earlier session of theirs)
    // before they see its new session and drop it: it ends either by readyTimeoutMs, naming the
    // peers it never reached (both, or only one when the other's link was up for a moment), or,
    // when both links were up for a moment, by peerDownTimeoutMs — a wait of its own either way.
    expect(last(restarted)).toMatch(
      /^critsec: P2(?: is not connected to (?:P0, P1|P0|P1) after 20000 ms$|: P[01] has been unreachable for 2000 ms \(peerDownTimeoutMs\))/,
    );
    for (const m of [...members.slice(0, 2), restarted]) expect(m.stderr).not.toContain('still open');
  });
});
