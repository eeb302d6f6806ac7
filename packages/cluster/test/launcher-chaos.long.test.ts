/*
 * runChaos over real OS processes (npm test keeps the refusals in launcher-chaos.test.ts; the
 * checker is unit-tested on crafted logs in chaos-check.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noProgressMs } from '@critsec/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { type ChaosProgress, runChaos } from '../src/launcher-chaos.js';
import { readCounter } from '../src/launcher-chaos-rmw.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('runChaos: members of a real TLS cluster SIGKILLed under a read-modify-write (issue 27)', () => {
  it('Maekawa, n = 2, a victim restarted alone from its store (the default): no overlap, no lost update, entries after the restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'critsec-chaos-test-'));
    dirs.push(dir);
    const seen: ChaosProgress['kind'][] = [];
    const r = await runChaos({
      algorithm: 'mutex',
      n: 2,
      kills: 1,
      seed: 5,
      restartAfterMs: 50,
      stallTimeoutMs: noProgressMs(),
      dir,
      onProgress: (p) => {
        if (p.kind !== 'entry' || seen.at(-1) !== 'entry') seen.push(p.kind);
      },
    });
    expect(r.failure).toBeNull();
    expect(r).toMatchObject({ ok: true, kills: 1, restarts: 1, restart: 'member', n: 2, k: 1 });
    expect(r.check).toMatchObject({ safetyViolations: 0, lostUpdates: 0, malformedRmws: 0 });
    expect(r.check.sequenceErrors).toEqual([]);
    expect(r.check.entriesAfterEachRestart).toHaveLength(1);
    for (const a of r.check.entriesAfterEachRestart) expect(a.entries).toBeGreaterThan(0);
    // every completed read-modify-write is in the counter, which the run directory keeps
    expect(readCounter(join(dir, 'chaos'), 0).value).toBe(r.check.completedRmws);
    expect(r.check.completedRmws).toBeGreaterThan(0);
    expect(r.dir).toBe(dir);
    expect(seen.slice(0, 3)).toEqual(['launched', 'entry', 'killed']);
    expect(seen.filter((k) => k === 'restarted')).toHaveLength(1);
    expect(seen).toContain('finishing');
  });

  it('Maekawa, n = 2, a kill restarting the cluster: no overlap, no lost update, entries after every restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'critsec-chaos-test-'));
    dirs.push(dir);
    const seen: ChaosProgress['kind'][] = [];
    const r = await runChaos({
      algorithm: 'mutex',
      n: 2,
      kills: 1,
      restart: 'cluster',
      seed: 5,
      restartAfterMs: 50,
      stallTimeoutMs: noProgressMs(),
      dir,
      onProgress: (p) => {
        if (p.kind !== 'entry' || seen.at(-1) !== 'entry') seen.push(p.kind);
      },
    });
    expect(r.failure).toBeNull();
    expect(r).toMatchObject({ ok: true, kills: 1, restarts: 1, restart: 'cluster', n: 2, k: 1 });
    expect(r.check).toMatchObject({ safetyViolations: 0, lostUpdates: 0, malformedRmws: 0 });
    expect(r.check.sequenceErrors).toEqual([]);
    expect(r.check.entriesAfterEachRestart).toHaveLength(1);
    for (const a of r.check.entriesAfterEachRestart) expect(a.entries).toBeGreaterThan(0);
    // every completed read-modify-write is in the counter, which the run directory keeps
    expect(readCounter(join(dir, 'chaos'), 0).value).toBe(r.check.completedRmws);
    expect(r.check.completedRmws).toBeGreaterThan(0);
    expect(r.dir).toBe(dir);
    expect(seen.slice(0, 3)).toEqual(['launched', 'entry', 'killed']);
    expect(seen.filter((k) => k === 'restarted')).toHaveLength(1);
    expect(seen).toContain('finishing');
  });

  it('an abort ends the run with AbortError, its members killed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'critsec-chaos-test-'));
    dirs.push(dir);
    const stop = new AbortController();
    const run = runChaos({
      algorithm: 'mutex',
      n: 2,
      kills: 5,
      stallTimeoutMs: noProgressMs(),
      dir,
      signal: stop.signal,
      onProgress: (p) => {
        if (p.kind === 'entry') stop.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
  });
});
