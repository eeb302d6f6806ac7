/**
 * `critsec node --serve` in process: a configuration the lock service cannot run is exit 78 with
 * one line; a member serves until stopped, then shuts down gracefully and reports it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeLoopbackPorts } from '@critsec/transport-tcp/setup';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT, main } from '../src/index.js';
import { runServeCommand } from '../src/serve.js';

const tmp = mkdtempSync(join(tmpdir(), 'critsec-serve-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function config(extra: object): Promise<string> {
  const [port] = await freeLoopbackPorts(1);
  const file = join(mkdtempSync(join(tmp, 'd')), 'cluster.json');
  writeFileSync(
    file,
    JSON.stringify({
      version: 1,
      n: 1,
      insecure: true,
      processes: [{ id: 0, host: '127.0.0.1', port }],
      algorithm: 'mutex',
      workload: { rounds: 1 },
      log: 'shared.log',
      ...extra,
    }),
  );
  return file;
}

describe('critsec node --serve', () => {
  it('another algorithm, unknown params, or a reselect the lock manager refuses: exit 78 (EX_CONFIG), one line', async () => {
    const three = (await freeLoopbackPorts(3)).map((port, id) => ({ id, host: '127.0.0.1', port }));
    for (const [extra, says, flags] of [
      [{ algorithm: 'gcs' }, 'set algorithm to "mutex"', []],
      [
        { params: { init: 'none' } },
        'the lock service takes coterie, fencing, ttl, driftMargin, reselect, k',
        [],
      ],
      // n = 1: majority(1) has a single quorum, nothing to move to
      [{ params: { reselect: 'on' } }, 'reselect needs a coterie with another quorum to move to', []],
      // n = 3, shared names: the default k = n − 1 = 2 has one 1-unit quorum (all three members)
      [{ params: { reselect: true }, n: 3, processes: three }, 'pass k ≤ n − 2 = 1', ['--shared', 'db']],
      // k is the shared names' units, at most n − 1
      [{ params: { k: 3 }, n: 3, processes: three }, 'k must be an integer in 1 … n − 1 = 2, got 3', []],
    ] as const) {
      let stderr = '';
      const code = await main(
        ['node', '--config', await config(extra), '--id', '0', '--serve', '127.0.0.1:0', ...flags],
        {
          stdout: { write: () => true },
          stderr: { write: (s: string) => (stderr += s) },
        },
      );
      expect(code).toBe(EXIT.config);
      expect(stderr).toContain(says);
      expect(stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('serves until stopped, then shuts down: every grant released', async () => {
    const lines: string[] = [];
    const stop = new AbortController();
    const done = runServeCommand(
      await config({ params: { fencing: true } }),
      '0',
      '127.0.0.1:0',
      {
        write: (l) => {
          lines.push(l);
          if (l.includes('serving locks')) stop.abort('SIGTERM');
        },
      },
      { stop: stop.signal },
    );
    const r = await done;
    lines.splice(0, lines.length, ...lines.filter((l) => !l.includes('insecure mode')));
    expect(lines[0]).toMatch(
      /^P0: serving locks on 127\.0\.0\.1:\d+ \(majority n=1, fencing tokens\); quorum \{0\} connected$/,
    );
    expect(lines[1]).toMatch(/^P0: SIGTERM: shutting down \(at most 13 s\)$/);
    expect(r.ok).toBe(true);
    expect(r.text).toMatch(
      /^P0: shut down in [\d.]+ s: every session ended, every grant released; every peer had left$/,
    );
  });

  it('params.k ≤ n − 2 lets shared names reselect: the member serves them', async () => {
    const three = (await freeLoopbackPorts(3)).map((port, id) => ({ id, host: '127.0.0.1', port }));
    const lines: string[] = [];
    const stop = new AbortController();
    const r = await runServeCommand(
      await config({ params: { reselect: 'on', k: 1 }, n: 3, processes: three }),
      '0',
      '127.0.0.1:0',
      {
        write: (l) => {
          lines.push(l);
          if (l.includes('serving locks')) stop.abort('SIGTERM');
        },
      },
      { stop: stop.signal, shared: 'db' },
    );
    expect(lines.find((l) => l.includes('serving locks'))).toMatch(/quorum reselection/);
    expect(r.ok).toBe(true);
  });
});
