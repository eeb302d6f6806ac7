import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT, main, type RunSummary } from '../src/index.js';

const DESCRIPTOR = fileURLToPath(new URL('./fixtures/central-descriptor.ts', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'critsec-user-descriptor-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
  });
  return { code, stdout, stderr };
}

describe("adding an algorithm is one descriptor: a user's factory runs without touching cluster or cli", () => {
  it('critsec simulate <module path>: safe, live, its own parameters and bounds', async () => {
    const r = await run(
      'simulate',
      DESCRIPTOR,
      '--n',
      '6',
      '--rounds',
      '5',
      '--workload',
      'sequential',
      '--json',
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(EXIT.ok);
    const s = JSON.parse(r.stdout) as RunSummary;
    expect(s).toMatchObject({
      n: 6,
      entries: 30,
      exits: 30,
      safetyViolations: 0,
      structure: 'P0 coordinates every request',
    });
    expect(s.algorithm).toBe(DESCRIPTOR);
    expect(s.messages.perPair.max).toBe(3);
  });

  it('its parameters are checked against its schema: a flag of another algorithm is refused', async () => {
    const r = await run('simulate', DESCRIPTOR, '--coterie', 'grid');
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toContain('takes no --coterie; its parameters: init');
    // the line the cli README quotes
    const k = await run('simulate', 'mutex', '--k', '2');
    expect(k.code).toBe(EXIT.usage);
    expect(k.stderr).toContain(
      'mutex takes no --k; its parameters: coterie, init, fencing, ttl, driftMargin',
    );
    const p = await run('simulate', DESCRIPTOR, '--param', 'init=0,1');
    expect(p.code).toBe(EXIT.usage);
    expect(p.stderr).toContain('not a safe initial configuration');
  });

  it('critsec cluster <module path>: real OS processes over mutual TLS load it by its path', async () => {
    const r = await run(
      'cluster',
      DESCRIPTOR,
      '--n',
      '3',
      '--rounds',
      '5',
      '--dir',
      join(tmp, 'cluster'),
      '--json',
      '--no-progress',
    );
    expect(r.code, r.stderr).toBe(EXIT.ok);
    const s = JSON.parse(r.stdout) as RunSummary;
    expect(s).toMatchObject({ n: 3, entries: 15, exits: 15, safetyViolations: 0, timeUnit: 'ms' });
  });
});
