import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigurationError } from '@critsec/core';
import { describe, expect, it, vi } from 'vitest';
import { MEMBER_MAIN_ENV } from '../src/launcher-entry.js';
import { readSharedLog, resolveClusterRun, runLocalCluster } from '../src/index.js';
import { tempDirs } from './helpers.js';

const tempDir = tempDirs('critsec-local-run-');

describe('runLocalCluster: critsec members (algorithms by name) as OS processes', () => {
  it('the (1,2)-GCS on 3 processes: every member reports, totals add up, the shared log is safe', async () => {
    // The members run this package's member main as a user's monorepo checkout runs it (the
    // sources through tsx), not the bundle the root test run prebuilds for every other launch.
    vi.stubEnv(MEMBER_MAIN_ENV, '');
    const dir = tempDir();
    const settings = resolveClusterRun({
      algorithm: 'gcs',
      n: 3,
      rounds: 3,
      dir,
      params: { l: 1, k: 2, coterie: 'majority' },
    });
    const progress: number[] = [];
    const commands: string[] = [];
    const { failure, result, reports, totals, violation } = await runLocalCluster(settings, {
      onProgress: (done, total) => progress.push(done / total),
      onLaunch: (run) => commands.push(readFileSync(`/proc/${run.pid(0)}/cmdline`, 'utf8')),
    });
    expect(commands).toHaveLength(1);
    expect(commands[0]).toMatch(/--import\0file:.*tsx.*\0.*[/]cluster[/]src[/]member-main\.ts\0--config/);
    expect(failure).toBeNull();
    expect(violation).toBeNull();
    expect(result.check.violationCount).toBe(0);
    expect(reports.map((r) => r.id).sort()).toEqual([0, 1, 2]);
    expect(totals.entries).toBe(9);
    expect(totals.exits).toBe(9);
    expect(totals.entryWaitsMs).toHaveLength(9);
    // every counted pair of every member caused messages, charged to it across processes
    expect(totals.pairs).toHaveLength(9);
    expect(totals.messages).toBe(reports.reduce((a, r) => a + r.cli.sent, 0));
    expect(progress.at(-1)).toBe(1);
    // `dir` is kept: the configuration names the algorithm and its params; the log has every call
    const config = JSON.parse(readFileSync(join(dir, 'cluster.json'), 'utf8')) as {
      algorithm: string;
      params: object;
    };
    expect(config.algorithm).toBe('gcs');
    expect(config.params).toMatchObject({ l: 1, k: 2, coterie: 'majority', seed: 1, workload: 'concurrent' });
    const { records } = readSharedLog(join(dir, 'shared.log'));
    expect(records.filter((r) => r.e === 'entry-done' && r.r !== undefined && r.r <= 3)).toHaveLength(9);
  });

  it('refuses a certificate directory without the certificates of every process, before anything runs', () => {
    const dir = tempDir();
    expect(() => resolveClusterRun({ algorithm: 'mutex', n: 3, certs: dir })).toThrow(ConfigurationError);
    expect(() => resolveClusterRun({ algorithm: 'mutex', n: 3, certs: dir })).toThrow(
      /missing ca\.pem, p0\.cert\.pem/,
    );
    expect(existsSync(join(dir, 'cluster.json'))).toBe(false);
  });
});
