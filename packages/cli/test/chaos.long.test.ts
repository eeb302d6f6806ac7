/*
 * issue 27's chaos runs: `critsec chaos mutex --n 5 --kills 40 --seed 23` and the same for the
 * (1,2)-GCS (gcs's default k is capped to n = 5, where no overlap is possible: k = 2 gives the
 * check something to hold). Each victim restarts alone with its state (`--restart member`:
 * durable real members, the cluster configuration's `durability`).
 */
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
