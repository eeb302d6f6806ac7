import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findAlgorithm } from '../src/algorithm-resolve.js';
import { refuseWithoutRecovery, runChaos } from '../src/launcher-chaos.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('runChaos: members of a real TLS cluster SIGKILLed under a read-modify-write (issue 27)', () => {
  it('refuses an algorithm that does not solve a global (l,k)-CS, before writing anything', async () => {
    const dir = join(tmpdir(), `critsec-chaos-refused-${process.pid}`);
    await expect(runChaos({ algorithm: 'h-out-of-k', kills: 1, dir })).rejects.toThrow(
      /global \(l,k\)-CS.*h-out-of-k/,
    );
    expect(existsSync(dir)).toBe(false);
  });

  it('refuses a victim restarted alone for an algorithm without crash recovery, naming the ways out', () => {
    const mutex = findAlgorithm('mutex');
    expect(() => refuseWithoutRecovery(mutex)).not.toThrow();
    expect(() => refuseWithoutRecovery({ ...mutex, name: 'amnesic', crashRecovery: undefined })).toThrow(
      /amnesic has no crash recovery.*--restart cluster.*mutex/,
    );
  });

  it('refuses crash-stop beyond a minority and a pause the members would not outlive, before writing anything (issue 28)', async () => {
    const dir = join(tmpdir(), `critsec-chaos-refused-28-${process.pid}`);
    await expect(runChaos({ algorithm: 'mutex', n: 5, kills: 3, restart: 'none', dir })).rejects.toThrow(
      /--no-restart keeps a majority of the 5 members alive, so at most 2 kills; got 3/,
    );
    await expect(
      runChaos({ algorithm: 'mutex', kills: 0, pauseMs: 5_000, callTimeoutMs: 5_000, dir }),
    ).rejects.toThrow(/--pause 5000 ms must be shorter than --call-timeout \(5000 ms\)/);
    await expect(runChaos({ algorithm: 'mutex', kills: 0, pauses: 2, dir })).rejects.toThrow(
      /--pauses needs --pause/,
    );
    await expect(runChaos({ algorithm: 'mutex', kills: 0, pauseMs: 0, dir })).rejects.toThrow(/pause/);
    expect(existsSync(dir)).toBe(false);
  });
});
