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

  it('issue 28: --pause, --pauses and --no-restart are in the help, and refused with exit code 2 when out of range', async () => {
    const help = await run('chaos', '--help');
    for (const flag of ['--no-restart', '--pause <ms>', '--pauses <p>']) expect(help.stdout).toContain(flag);
    const stop = await run('chaos', 'mutex', '--kills', '3', '--no-restart');
    expect(stop.code).toBe(EXIT.usage);
    expect(stop.stderr).toMatch(
      /--no-restart keeps a majority of the 5 members alive, so at most 2 kills; got 3/,
    );
    const long = await run('chaos', 'mutex', '--kills', '1', '--pause', '9000', '--call-timeout', '9000');
    expect(long.code).toBe(EXIT.usage);
    expect(long.stderr).toMatch(/--pause 9000 ms must be shorter than --call-timeout/);
    const alone = await run('chaos', 'mutex', '--kills', '1', '--pauses', '2');
    expect(alone.code).toBe(EXIT.usage);
    expect(alone.stderr).toMatch(/--pauses needs --pause/);
  });

  it('issue 28, fencing: --no-fenced-store, --hold and --think are in the help; a negative --hold is refused with exit code 2', async () => {
    const help = await run('chaos', '--help');
    for (const flag of ['--no-fenced-store', '--hold <ms>', '--think <ms>'])
      expect(help.stdout).toContain(flag);
    const hold = await run('chaos', 'mutex', '--kills', '1', '--hold', '-1');
    expect(hold.code).toBe(EXIT.usage);
    expect(hold.stderr).toMatch(/--hold must be a number of ms ≥ 0, got -1/);
  });

  it('issue 29, locks: --names and --shared-ratio in the help; refused with exit code 2 before anything is launched', async () => {
    const help = await run('chaos', '--help');
    for (const flag of ['--names <n>', '--shared-ratio <r>', 'or locks']) expect(help.stdout).toContain(flag);
    const refusals: [string[], RegExp][] = [
      [['--kills', '1'], /critsec chaos locks needs --names <N>/],
      [
        ['--names', '4', '--kills', '1', '--restart', 'member'],
        /--restart member is refused — a lock manager is not a durable member/,
      ],
      [
        ['--names', '4', '--kills', '1', '--coterie', 'grid'],
        /takes --k, --ttl, --fencing, --driftMargin and --reselect of the lock manager; not --coterie/,
      ],
      [
        ['--names', '4', '--kills', '1', '--shared-ratio', '2'],
        /--shared-ratio must be a number in \[0, 1\], got 2/,
      ],
      [['--names', '4', '--kills', '1', '--k', '5'], /--k must be below n = 5, got 5/],
    ];
    for (const [argv, message] of refusals) {
      const r = await run('chaos', 'locks', ...argv);
      expect(r.code).toBe(EXIT.usage);
      expect(r.stderr).toMatch(message);
    }
    const other = await run('chaos', 'mutex', '--kills', '1', '--names', '4');
    expect(other.code).toBe(EXIT.usage);
    expect(other.stderr).toMatch(/--names and --shared-ratio are options of critsec chaos locks/);
  });
});
