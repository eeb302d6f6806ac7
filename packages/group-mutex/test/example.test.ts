/** The README's example (examples/meetings.ts) runs and prints what the README says. */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('examples/meetings.ts', () => {
  it('runs: 27 sessions, 0 violations, the same output as in the README', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--conditions=@critsec/source', '--import', 'tsx', 'examples/meetings.ts'],
      // no colours in what the example prints, whatever the runner sets (nx sets FORCE_COLOR)
      { cwd: root, env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' } },
    );
    expect(stdout).toMatch(/^27 sessions, at most \d+ people in the room together; violations: 0\n$/);
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).toContain(`// ${stdout.trim()}`);
    const example = readFileSync(join(root, 'examples/meetings.ts'), 'utf8');
    const code = example.slice(example.indexOf('import {'));
    expect(readme).toContain(code.trim());
  });
});
