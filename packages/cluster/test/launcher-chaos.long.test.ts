/*
 * runChaos over real OS processes (npm test keeps the refusals in launcher-chaos.test.ts; the
 * checker is unit-tested on crafted logs in chaos-check.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noProgressMs } from '@critsec/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { type ChaosProgress, type ChaosResult, runChaos } from '../src/launcher-chaos.js';
import { readCounter } from '../src/launcher-chaos-rmw.js';
import { readSharedLog } from '../src/shared-log.js';

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

describe('runChaos: pauses and crash-stop (issue 28)', () => {
  it('Maekawa, n = 3, two holders SIGSTOPped for 400 ms and SIGCONTinued: no overlap, no lost update, the members finish', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'critsec-chaos-test-'));
    dirs.push(dir);
    const seen: ChaosProgress['kind'][] = [];
    const r = await runChaos({
      algorithm: 'mutex',
      n: 3,
      kills: 0,
      restart: 'cluster',
      pauseMs: 400,
      pauses: 2,
      seed: 7,
      stallTimeoutMs: noProgressMs(),
      dir,
      onProgress: (p) => {
        if (p.kind !== 'entry') seen.push(p.kind);
      },
    });
    console.log(
      `pauses: ${r.paused.map((p) => `P${p.id}${p.holder ? ' (holder)' : ''} ${p.stoppedMs} ms`).join(', ')}; ${r.check.entries} entries, ${r.check.completedRmws} read-modify-writes`,
    );
    expect(r.failure).toBeNull();
    expect(r).toMatchObject({ ok: true, kills: 0, restarts: 0 });
    expect(r.check).toMatchObject({ safetyViolations: 0, lostUpdates: 0, malformedRmws: 0 });
    expect(r.check.sequenceErrors).toEqual([]);
    expect(r.paused).toHaveLength(2);
    for (const p of r.paused) expect(p.stoppedMs).toBeGreaterThanOrEqual(400);
    expect(seen).toEqual(['launched', 'paused', 'resumed', 'paused', 'resumed', 'finishing']);
    expect(readCounter(join(dir, 'chaos'), 0).value).toBe(r.check.completedRmws);
  });

  it('Maekawa, n = 3, crash-stop (--no-restart): the victim stays dead, its unfinished work is no violation, the log checks clean', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'critsec-chaos-test-'));
    dirs.push(dir);
    const r = await runChaos({
      algorithm: 'mutex',
      n: 3,
      // quorum reselection (issue 28 §4): the living move to a quorum avoiding the dead member;
      // fencing and a ttl of 1 s (§1–2): the locks the dead member held come back within it
      params: { coterie: 'majority', reselect: 'on', fencing: 'true', ttl: 1_000 },
      kills: 1,
      restart: 'none',
      seed: 5,
      // how long the living are given to go on without the dead member before the run is called stuck
      stallTimeoutMs: 20_000,
      dir,
    });
    console.log(
      `crash-stop of P${r.victims[0]?.id}${r.victims[0]?.holder ? ' (holder)' : ''}: ${r.check.entries} entries, ok ${r.ok}${r.failure === null ? '' : ` (${r.failure.slice(0, 90)}…)`}`,
    );
    expect(r).toMatchObject({ kills: 1, restarts: 0, restart: 'none' });
    expect(r.check).toMatchObject({ safetyViolations: 0, lostUpdates: 0, malformedRmws: 0 });
    expect(r.check.sequenceErrors).toEqual([]);
    // the dead member stayed dead: nothing of it after its `crashed` line
    const { records } = readSharedLog(join(dir, 'shared.log'));
    const victim = r.victims[0]!.id;
    const crashed = records.findIndex((x) => x.p === victim && x.e === 'crashed');
    expect(crashed).toBeGreaterThanOrEqual(0);
    expect(records.slice(crashed + 1).filter((x) => x.p === victim)).toEqual([]);
    // the living move to the quorum avoiding the dead member once they suspect it (reselection),
    // and the locks it held — InCS, or waiting with some — are reclaimed by the ttl: the run
    // completes whatever the victim was doing (without the ttl it ended stuck whenever the victim
    // held a lock every quorum of the living needs)
    expect(r.failure).toBeNull();
    expect(r.ok).toBe(true);
  });
});

describe('runChaos with fencing tokens: pauses past the ttl (issue 28)', () => {
  /** Maekawa at n = 3 with a 600 ms ttl, a holder paused 1,200 ms twice, holding 50 ms between its read and its write. */
  const paused = (seed: number, fencedStore: boolean) => {
    const dir = mkdtempSync(join(tmpdir(), 'critsec-chaos-test-'));
    dirs.push(dir);
    return runChaos({
      algorithm: 'mutex',
      n: 3,
      params: { ttl: 600 },
      kills: 0,
      restart: 'cluster',
      pauseMs: 1_200,
      pauses: 2,
      holdMs: 50,
      thinkMs: 20,
      seed,
      fencedStore,
      stallTimeoutMs: noProgressMs(),
      dir,
    });
  };
  const line = (r: ChaosResult, seed: number) =>
    `seed ${seed}: pauses ${r.paused.map((p) => `P${p.id}${p.holder ? ' (holder)' : ''} ${p.stoppedMs} ms`).join(', ')}; ${r.check.entries} entries, ${r.check.tenures} tokens, ${r.check.expiredGrants} expired grants, ${r.check.expiredOverlaps} overlap records they explain, ${r.check.staleRejected} stale operations rejected, ${r.check.lostUpdates} lost updates, ${r.check.fencingViolations} fencing violations`;

  it('a fencing-aware counter loses no update and sees no fencing violation, while grants expire under the pauses', async () => {
    // the first seed whose pauses outlived a holder's grant (each is checked whatever it shows)
    for (const seed of [1, 2, 3]) {
      const r = await paused(seed, true);
      console.log(`fenced, ${line(r, seed)}`);
      expect(r.failure).toBeNull();
      expect(r.check).toMatchObject({
        safetyViolations: 0,
        lostUpdates: 0,
        fencingViolations: 0,
        malformedRmws: 0,
      });
      expect(r.check.tenures).toBe(r.check.entries);
      expect(readCounter(join(r.dir!, 'chaos'), 0).value).toBe(r.check.completedRmws);
      if (r.check.expiredGrants > 0) return;
    }
    expect.fail('no pause outlived a holder’s grant over seeds 1–3');
  });

  it('the same workload through the plain counter (no token checked) is caught losing updates', async () => {
    for (const seed of [1, 2, 3]) {
      const r = await paused(seed, false);
      console.log(`plain counter, ${line(r, seed)}`);
      expect(r.check).toMatchObject({ safetyViolations: 0, fencingViolations: 0, staleRejected: 0 });
      if (r.check.lostUpdates > 0) {
        expect(r.ok).toBe(false);
        expect(r.failure).toMatch(/update\(s\) lost/);
        return;
      }
    }
    expect.fail('no lost update over seeds 1–3: the check did not bite');
  });
});
