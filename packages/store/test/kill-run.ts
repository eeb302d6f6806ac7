/**
 * The real store under SIGKILL (shared by the short and long tests): a child process commits a
 * recorded run; the parent kills it after a seeded number of commits it has seen resolve (the
 * child is then in the middle of the next ones), reopens the store and checks it is exactly a
 * committed prefix that includes every commit the child reported — never corrupt, never torn.
 * Budgeted by the number of kills, not by time.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRng } from '@critsec/core';
import { expect } from 'vitest';
import { lmdbStore } from '../src/index.js';
import { expectedStates, plain, recordedRun } from './recorded-run.js';

const here = dirname(fileURLToPath(import.meta.url));
const packageRoot = join(here, '..');

/** Start the child, kill it with SIGKILL after `after` reported commits; the last one it reported. */
function killAfter(
  path: string,
  seed: number,
  steps: number,
  after: number,
): Promise<{ reported: number; done: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--conditions=@critsec/source',
        '--import',
        'tsx',
        join(here, 'fixtures', 'commit-loop.ts'),
        path,
        String(seed),
        String(steps),
      ],
      { cwd: packageRoot, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let reported = -1;
    let seen = 0;
    let done = false;
    let buffer = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop() as string;
      for (const line of lines) {
        if (line === 'done') done = true;
        else if (line.startsWith('open ')) reported = Number(line.slice(5));
        else {
          reported = Number(line);
          if (++seen === after) child.kill('SIGKILL');
        }
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL' && code !== 0) reject(new Error(`child exited ${code}: ${stderr}`));
      else resolve({ reported, done });
    });
  });
}

/** `kills` SIGKILLs of children committing one run of `steps` steps on one store; returns kills made. */
export async function killDuringCommits(seed: number, steps: number, kills: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'critsec-store-kill-'));
  const path = join(dir, 'member.lmdb');
  const run = recordedRun(seed, steps);
  const expected = expectedStates(run);
  const rng = createRng(seed);
  let made = 0;
  try {
    for (let k = 0; k < kills; k++) {
      const { reported, done } = await killAfter(path, seed, steps, 1 + rng.int(8));
      if (done) break;
      made++;
      if (reported < 0) continue; // killed before the store was opened
      const store = await lmdbStore(path, { cluster: 'kill', member: 0, mode: 'recover' });
      const snap = store.load();
      await store.close();
      expect(snap.sequence, `kill ${k}`).toBeGreaterThanOrEqual(reported);
      expect(plain(snap.records), `kill ${k}`).toEqual(plain(expected[snap.sequence] as Map<string, never>));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return made;
}
