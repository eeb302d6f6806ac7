/*
 * `critsec cluster` when a member dies in the middle of the run (SIGKILL from outside, as an
 * operator's `kill -9`): the run ends at once, non-zero, with the line naming the member — and
 * the summary still counts the work every member completed (from the shared log: the survivors'
 * and the dead member's up to its death), names the member that died, how and when, and gives
 * the shared-log check's verdict over what was logged. The kill waits by progress (the victim's
 * completed entries), never by the wall clock. Shared by `cluster-death.test.ts` (the GCS) and
 * `cluster-death.long.test.ts` (mutex over 5 members, the scenario of the report).
 */
import { join } from 'node:path';
import { type ClusterRun, readSharedLog, resolveClusterRun } from '@critsec/cluster';
import { waitForProgress } from '@critsec/testing';
import { expect } from 'vitest';
import { exitCodeFor } from '../src/cli.js';
import { EXIT, formatSummary, runCluster } from '../src/index.js';

/** Entries the victim completes before it is killed. */
const BEFORE_KILL = 12;

/** What {@link killMemberMidRun} runs. */
export interface DeathCase {
  readonly algorithm: string;
  readonly n: number;
  readonly params: Readonly<Record<string, string | number>>;
  /** The member to kill. */
  readonly victim: number;
  /** Where to write the cluster (the shared log is read back from it). */
  readonly dir: string;
}

/** Runs `critsec cluster`, SIGKILLs the victim after its first entries, and checks the summary. */
export async function killMemberMidRun({ algorithm, n, params, victim, dir }: DeathCase): Promise<void> {
  // far more rounds than the run lasts: it ends by the death, not by the work
  const s = resolveClusterRun({ algorithm, n, params, rounds: 100_000, think: 1, hold: 1, dir });
  let run: ClusterRun | undefined;
  let victimEntries = 0;
  const summary = runCluster(s, {
    onLaunch: (r) => {
      run = r;
      r.onProgress((p) => {
        if (p.id === victim && p.event === 'entry-done') victimEntries++;
      });
    },
  });
  try {
    await waitForProgress(() => victimEntries >= BEFORE_KILL, {
      what: `P${victim}'s ${BEFORE_KILL} entries`,
      measure: () => victimEntries,
    });
    const pid = run!.pid(victim);
    expect(pid).toBeGreaterThan(0);
    process.kill(pid!, 'SIGKILL');
  } finally {
    if (victimEntries < BEFORE_KILL) await run?.stop();
  }
  const out = await summary;

  // the run failed, with the line naming the member
  expect(out.ok).toBe(false);
  expect(exitCodeFor(out)).toBe(EXIT.failed);
  expect(out.failure).toMatch(new RegExp(`^P${victim} exited with SIGKILL without a report`));

  // the work counted from the shared log: every member's, the dead one's up to its death
  const { records } = readSharedLog(join(dir, 'shared.log'));
  const crashed = records.findIndex((r) => r.e === 'crashed');
  expect(records[crashed]).toMatchObject({ p: victim, e: 'crashed', sig: 'SIGKILL' });
  const done = (e: string, p?: number, end = records.length) =>
    records.slice(0, end).filter((r) => r.e === e && (p === undefined || r.p === p)).length;
  expect(out.entries).toBe(done('entry-done'));
  expect(out.exits).toBe(done('exit-done'));
  expect(out.entries).toBeGreaterThanOrEqual(BEFORE_KILL);
  expect(out.byProcess!.entries).toEqual(Array.from({ length: n }, (_, p) => done('entry-done', p)));
  expect(out.byProcess!.entries[victim]).toBeGreaterThanOrEqual(BEFORE_KILL);
  expect(out.byProcess!.entries.reduce((a, b) => a + b, 0)).toBe(out.entries);
  // the survivors' work is there too
  expect(out.byProcess!.entries.filter((x) => x > 0).length).toBeGreaterThan(1);

  // the death: which member, how, and when (after how many entries, where in the log)
  expect(out.deaths).toEqual([
    {
      id: victim,
      signal: 'SIGKILL',
      code: null,
      entries: done('entry-done', victim, crashed),
      exits: done('exit-done', victim, crashed),
      clusterEntries: done('entry-done', undefined, crashed),
      clusterExits: done('exit-done', undefined, crashed),
      step: crashed + 1,
      afterMs: expect.any(Number),
    },
  ]);
  expect(out.deaths![0]!.entries).toBeGreaterThanOrEqual(BEFORE_KILL);

  // the shared-log check ran over what was logged, and gives its verdict
  expect(out.safetyViolations).toBe(0);
  expect(out.violation).toBeNull();
  expect(out.sharedLogRecords).toBe(records.length);

  const text = formatSummary(out);
  expect(text).toMatch(
    new RegExp(
      `entries / exits completed\\s+│ ${out.entries.toLocaleString('en-US')} / ${out.exits.toLocaleString('en-US')}\\s`,
    ),
  );
  expect(text).toContain(
    `P${victim} DIED (SIGKILL) after ${out.deaths![0]!.entries.toLocaleString('en-US')} of its entries, ${out.deaths![0]!.clusterEntries.toLocaleString('en-US')} in the cluster (shared-log record ${(crashed + 1).toLocaleString('en-US')}, `,
  );
  expect(text).toMatch(/safety violations\s+│ 0\s+│ 0\s+│ ok/);
  expect(text).toContain("entries / exits completed: every member's, from the shared log;");
  expect(text).toContain(
    `shared-log safety check over the ${records.length.toLocaleString('en-US')} records logged: 0 violation(s)`,
  );
  expect(text).toContain(`FAILED: P${victim} exited with SIGKILL without a report`);
  // a member that exited by itself is named by its code; one with no crashed line, by time only
  const exited = { ...out.deaths![0]!, signal: null, code: 1, step: 0, afterMs: 2_500 };
  expect(formatSummary({ ...out, deaths: [exited] })).toContain(
    `P${victim} DIED (exit code 1) after ${exited.entries.toLocaleString('en-US')} of its entries, ${exited.clusterEntries.toLocaleString('en-US')} in the cluster (2.5 s into the run)\n`,
  );
}
