/**
 * The README's readers–writers recipe (`examples/readers-writers.ts`) runs and prints what the
 * README says: shared = 1 unit, exclusive = k units; never a writer with anybody else.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { noProgressMs } from '@critsec/testing';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
/** No colours in what the example prints, whatever the runner sets (nx sets FORCE_COLOR). */
const plainOutput = { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' };

const run = (file: string) =>
  execFileSync(process.execPath, ['--conditions=@critsec/source', '--import', 'tsx', file], {
    cwd: root,
    encoding: 'utf8',
    timeout: noProgressMs(),
    env: plainOutput,
  });

describe('examples/quickstart.ts (the README example)', () => {
  it('runs and prints what the README says', () => {
    expect(run('examples/quickstart.ts')).toBe('true 45 null\n');
  });
});

describe('examples/readers-writers.ts', () => {
  it('runs: 3 readers together at most, writers alone, no violation', () => {
    const out = execFileSync(
      process.execPath,
      ['--conditions=@critsec/source', '--import', 'tsx', 'examples/readers-writers.ts'],
      {
        cwd: root,
        encoding: 'utf8',
        timeout: noProgressMs(),
        env: plainOutput,
      },
    );
    expect(out).toBe(
      '20 reads, 10 writes; at most 3 readers together (k = 3)\n' +
        'a writer shared the resource 0 times; monitor violations: 0\n',
    );
  });
});
