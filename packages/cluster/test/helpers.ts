import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

/** Returns `tempDir()`: a fresh temporary directory each call, all removed after the file's tests. */
export function tempDirs(prefix: string): () => string {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  return () => {
    const d = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(d);
    return d;
  };
}

/**
 * The coordinator-mutex test algorithm (a module exporting `createFactory`), which lives with
 * the TCP transport's tests because its benchmark uses it too.
 */
export const coordinatorMutexModule = fileURLToPath(
  new URL('../../transport-tcp/test/fixtures/coordinator-mutex.ts', import.meta.url),
);
