import { describe, expect, it } from 'vitest';
import { EXIT, main } from '../src/index.js';

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

describe('critsec chaos (issue 27)', () => {
  it('--help documents the kills, the restart, the seed, the deadlines and --json', async () => {
    const r = await run('chaos', '--help');
    expect(r.code).toBe(EXIT.ok);
    for (const flag of [
      '--kills <k>',
      '--restart-after <ms>',
      '--restart <what>',
      '--seed <s>',
      '--call-timeout <ms>',
      '--stall-timeout <ms>',
      '--dir <dir>',
      '--json',
      '--coterie',
      '--k <value>',
    ]) {
      expect(r.stdout).toContain(flag);
    }
    expect(r.stdout).toMatch(/lost/);
  });

  it('refuses, with exit code 2 and one line, an algorithm that does not solve a global (l,k)-CS, a missing --kills, a bad --restart', async () => {
    const hk = await run('chaos', 'h-out-of-k', '--kills', '1');
    expect(hk.code).toBe(EXIT.usage);
    expect(hk.stderr).toMatch(
      /critsec: critsec chaos checks a global \(l,k\)-CS, and h-out-of-k solves a h-out-of-k problem/,
    );
    const noKills = await run('chaos', 'mutex');
    expect(noKills.code).toBe(EXIT.usage);
    expect(noKills.stderr).toMatch(/--kills/);
    const restart = await run('chaos', 'mutex', '--kills', '1', '--restart', 'sometimes');
    expect(restart.code).toBe(EXIT.usage);
    expect(restart.stderr).toMatch(/restart/);
  });
});
