import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSharedLog } from '@critsec/cluster';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT, runCluster, writeCertificates } from '../src/index.js';
import { exitCodeFor } from '../src/cli.js';
import { resolveClusterRun } from '@critsec/cluster';

const tmp = mkdtempSync(join(tmpdir(), 'critsec-cluster-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('critsec cluster: real OS processes over TCP/TLS', () => {
  it('gcs over 4 processes: every round completes, the shared-log check finds nothing', async () => {
    const certs = join(tmp, 'certs');
    const { files, config: written } = await writeCertificates({ n: 4, out: certs });
    expect(written).toEqual({ skipped: expect.stringContaining('2 host(s) for 4 processes') });
    expect(files).toEqual([
      'ca.pem',
      'ca.key.pem',
      'p0.cert.pem',
      'p0.key.pem',
      'p1.cert.pem',
      'p1.key.pem',
      'p2.cert.pem',
      'p2.key.pem',
      'p3.cert.pem',
      'p3.key.pem',
    ]);
    const dir = join(tmp, 'run');
    const s = resolveClusterRun({
      algorithm: 'gcs',
      n: 4,
      rounds: 5,
      certs,
      dir,
      think: 1,
      hold: 1,
      params: { l: 1, k: 3 },
    });
    let progress = 0;
    const summary = await runCluster(s, { onProgress: (done) => (progress = done) });
    expect(summary.failure).toBeNull();
    expect(summary.ok).toBe(true);
    expect(exitCodeFor(summary)).toBe(EXIT.ok);
    expect([summary.entries, summary.exits, progress]).toEqual([20, 20, 40]);
    expect(summary.safetyViolations).toBe(0);
    expect(summary.timeUnit).toBe('ms');
    // every counted pair is attributed across processes: at least the uncontended count
    expect(summary.messages.perPair.mean).toBeGreaterThan(0);
    expect(summary.messages.perPair.max).toBeGreaterThanOrEqual(summary.messages.perPair.mean ?? 0);
    expect(summary.messages.total).toBe(Object.values(summary.messages.byType).reduce((a, b) => a + b, 0));
    // the configuration and shared log are kept in --dir: every member's calls are there
    const config = JSON.parse(readFileSync(join(dir, 'cluster.json'), 'utf8')) as {
      bounds: unknown;
      params: unknown;
    };
    expect(config.bounds).toEqual({ l: 1, k: 3 });
    expect(config.params).toEqual({
      l: 1,
      k: 3,
      coterie: 'grid',
      seed: 1,
      workload: 'concurrent',
    });
    const { records, malformed } = readSharedLog(join(dir, 'shared.log'));
    expect(malformed).toBe(0);
    for (let p = 0; p < 4; p++) {
      expect(records.filter((r) => r.p === p && r.e === 'entry-done').length).toBeGreaterThanOrEqual(5);
    }
  });

  it('sequential workload over TCP: one call at a time, exact message counts as in the simulator', async () => {
    const s = resolveClusterRun({
      algorithm: 'mutex',
      n: 3,
      rounds: 3,
      workload: 'sequential',
      params: { coterie: 'majority' },
    });
    const summary = await runCluster(s);
    expect(summary.failure).toBeNull();
    expect([summary.ok, summary.workload, summary.entries, summary.exits]).toEqual([
      true,
      'sequential',
      9,
      9,
    ]);
    // majority(3): |Q| = 2, Maekawa without contention: exactly 3·|Q| per CS
    expect(summary.messages.perPair).toEqual({ mean: 6, p99: 6, max: 6 });
    expect(summary.boundsMet.messagesPerPair).toBe(true);
    expect(summary.messages.total).toBe(54);
  });
});
