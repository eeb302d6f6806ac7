/*
 * issue 27's chaos runs: `critsec chaos mutex --n 5 --kills 40 --seed 23` and the same for the
 * (1,2)-GCS (gcs's default k is capped to n = 5, where no overlap is possible: k = 2 gives the
 * check something to hold). Each victim restarts alone with its state (`--restart member`:
 * durable real members, the cluster configuration's `durability`). Issue 29: `critsec chaos
 * locks` — named locks under kills (whole-cluster restarts) and pauses, with the fencing-aware
 * counter (nothing broken) and with the plain one (an update lost: the per-name check bites).
 */
import { rmSync } from 'node:fs';
import { noProgressMs } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { EXIT, main } from '../src/index.js';

async function chaos(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const budget = String(noProgressMs());
  const flags = [
    '--restart',
    'member',
    '--stall-timeout',
    budget,
    '--call-timeout',
    budget,
    '--json',
    '--no-progress',
  ];
  const code = await main(['chaos', ...argv, ...flags], {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
  });
  return { code, stderr, summary: stdout === '' ? undefined : JSON.parse(stdout) };
}

describe('critsec chaos: 40 kills of real members, Jepsen-style checks (issue 27)', () => {
  for (const args of [
    ['mutex', '--n', '5'],
    ['gcs', '--n', '5', '--l', '1', '--k', '2'],
  ]) {
    it(`${args.join(' ')} --kills 40 --seed 23: no overlap beyond k, no lost update, entries after every restart`, async () => {
      const r = await chaos(...args, '--kills', '40', '--seed', '23');
      expect(r.stderr).toBe('');
      expect(r.code).toBe(EXIT.ok);
      expect(r.summary).toMatchObject({
        kills: 40,
        restarts: 40,
        safetyViolations: 0,
        lostUpdates: 0,
        ok: true,
      });
      expect(r.summary.entriesAfterEachRestart).toHaveLength(40);
      for (const e of r.summary.entriesAfterEachRestart) expect(e).toBeGreaterThan(0);
    });
  }
});

/** `critsec chaos locks …` in this process; the whole cluster restarts after each kill. */
async function chaosLocks(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const budget = String(noProgressMs());
  const flags = ['--stall-timeout', budget, '--call-timeout', budget, '--json', '--no-progress'];
  const code = await main(['chaos', 'locks', ...argv, ...flags], {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
  });
  return { code, stderr, summary: stdout === '' ? undefined : JSON.parse(stdout) };
}

describe('critsec chaos locks: named locks under kills and pauses, checked per name (issue 29)', () => {
  it('--n 5 --names 20 --kills 2 with tokens and the fencing-aware counter: 0 violations, 0 lost, 0 fencing violations', async () => {
    const r = await chaosLocks(
      ...['--n', '5', '--names', '20', '--kills', '2'],
      ...['--ttl', '1000', '--fencing', 'true', '--hold', '20', '--think', '20', '--seed', '1'],
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(EXIT.ok);
    expect(r.summary).toMatchObject({
      algorithm: 'locks',
      names: 20,
      sharedNames: 10,
      kills: 2,
      restarts: 2,
      safetyViolations: 0,
      lostUpdates: 0,
      fencingViolations: 0,
      fencedStore: true,
      ok: true,
    });
    const s = r.summary;
    expect(s.perName).toHaveLength(20);
    expect(s.perName.reduce((a: number, n: { holds: number }) => a + n.holds, 0)).toBe(s.entries);
    expect(s.tenures).toBe(s.entries);
    expect(s.exclusiveHolds).toBeGreaterThan(0);
    expect(s.sharedHolds).toBeGreaterThan(0);
    console.log(`chaos locks, fenced: ${JSON.stringify({ ...s, perName: undefined })}`);
  });

  it('the same holds through the plain counter, a holder paused past its ttl: caught losing updates', async () => {
    // one name, so the paused holder's name is the one the others take once its grant expires
    let caught: { seed: number; summary: Record<string, unknown> } | undefined;
    for (const seed of ['1', '2', '3']) {
      const r = await chaosLocks(
        ...[
          '--n',
          '3',
          '--names',
          '1',
          '--shared-ratio',
          '0',
          '--kills',
          '0',
          '--pause',
          '2500',
          '--pauses',
          '2',
        ],
        ...[
          '--ttl',
          '600',
          '--fencing',
          'true',
          '--hold',
          '50',
          '--think',
          '20',
          '--no-fenced-store',
          '--seed',
          seed,
        ],
      );
      if (typeof r.summary?.dir === 'string') rmSync(r.summary.dir, { recursive: true, force: true }); // kept when it fails
      expect(r.summary).toMatchObject({ fencedStore: false, safetyViolations: 0, fencingViolations: 0 });
      if (r.summary.lostUpdates > 0) {
        expect(r.code).toBe(EXIT.failed);
        expect(r.summary.failure).toMatch(/update\(s\) lost/);
        caught = { seed: Number(seed), summary: r.summary };
        break;
      }
    }
    expect(caught).toBeDefined();
    console.log(`chaos locks, plain counter: seed ${caught?.seed} ${JSON.stringify(caught?.summary)}`);
  });

  it('crash-stop (--no-restart) with --reselect on: the living go on without the dead member, 0 violations', async () => {
    // exclusive-only names: a shared name over the default arbiter (k = n − 1) has one quorum, all n
    const r = await chaosLocks(
      ...['--n', '5', '--names', '6', '--shared-ratio', '0', '--kills', '1', '--no-restart'],
      ...[
        '--reselect',
        'on',
        '--ttl',
        '1000',
        '--fencing',
        'true',
        '--hold',
        '20',
        '--think',
        '20',
        '--seed',
        '1',
      ],
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(EXIT.ok);
    expect(r.summary).toMatchObject({
      restart: 'none',
      kills: 1,
      restarts: 0,
      safetyViolations: 0,
      lostUpdates: 0,
      fencingViolations: 0,
      ok: true,
    });
    console.log(`chaos locks, crash-stop: ${JSON.stringify({ ...r.summary, perName: undefined })}`);
  });
});
