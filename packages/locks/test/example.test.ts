/**
 * The README's example (`examples/quickstart.ts`, the same lines) runs and prints what the README
 * says.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { noProgressMs } from '@critsec/testing';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('examples/quickstart.ts (the README example)', () => {
  it('is the README example, and runs printing what the README says', () => {
    const example = readFileSync(`${root}/examples/quickstart.ts`, 'utf8').trim();
    expect(readFileSync(`${root}/README.md`, 'utf8')).toContain(example);
    const out = execFileSync(
      process.execPath,
      ['--conditions=@critsec/source', '--import', 'tsx', 'examples/quickstart.ts'],
      {
        cwd: root,
        encoding: 'utf8',
        timeout: noProgressMs(),
        env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
      },
    );
    expect(out).toBe("3 [ 'shared@2', 'shared@2', 'shared@4' ] null\n");
  });
});
