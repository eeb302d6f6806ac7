import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

describe('examples/ring.ts (the README example)', () => {
  it('runs and prints what the README says', () => {
    const file = fileURLToPath(new URL('../examples/ring.ts', import.meta.url));
    const out = execFileSync(process.execPath, ['--conditions=@critsec/source', '--import', 'tsx', file], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      encoding: 'utf8',
      // no colours in what the example prints, whatever the runner sets (nx sets FORCE_COLOR)
      env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
    });
    expect(out.trim().split('\n')).toEqual(['true null 18', 'true null 18', 'true']);
  });
});
