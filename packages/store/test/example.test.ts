import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// the package directory, whichever directory the runner started in (nx: the package; the root's
// `vitest run`: the repository)
const pkg = fileURLToPath(new URL('..', import.meta.url));

describe('the README example (examples/outbox.ts)', () => {
  it('is the README block and prints what the README says', () => {
    const file = readFileSync(`${pkg}examples/outbox.ts`, 'utf8');
    const readme = readFileSync(`${pkg}README.md`, 'utf8');
    expect(readme).toContain(file.slice(file.indexOf('\n') + 1).trimEnd());
    const out = execFileSync(
      process.execPath,
      ['--conditions=@critsec/source', '--import', 'tsx', 'examples/outbox.ts'],
      // plain output whatever the runner's colour settings (nx sets FORCE_COLOR for its tasks)
      { cwd: pkg, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' } },
    );
    expect(out).toBe("[ 'LOCKED to 3', 'LOCKED to 4' ]\n{ version: 1, value: { holder: 4 } }\n2\n");
  });
});
