import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { noProgressMs } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import {
  createLocalCluster,
  launchCluster,
  loadClusterConfig,
  readSharedLog,
  transportOptionsFor,
} from '../src/index.js';
import { clusterProblemSpec } from '../src/config-cluster.js';
import { coordinatorMutexModule, tempDirs } from './helpers.js';

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const tempDir = tempDirs('critsec-cluster-');

describe('clusters of real OS processes over mutual TLS, with the shared-log safety check', () => {
  it('n = 5 processes run a mutex workload to completion with zero violations', async () => {
    const dir = tempDir();
    const loaded = await createLocalCluster({
      dir,
      n: 5,
      algorithm: coordinatorMutexModule,
      params: { coordinator: 2 },
      workload: { rounds: 8, holdMs: 2, thinkMs: 1 },
    });
    // The files it wrote are a valid, secure configuration.
    expect(loaded.config.insecure).toBeUndefined();
    expect(transportOptionsFor(loaded, 3).tls?.cert).toContain('BEGIN CERTIFICATE');
    const run = launchCluster({ configPath: loaded.path, timeoutMs: noProgressMs() });
    const result = await run.done;
    expect(result.reason).toBeUndefined();
    expect(result.ok).toBe(true);
    expect(result.exits.map((e) => e.code)).toEqual([0, 0, 0, 0, 0]);
    expect(result.reports.map((r) => r?.rounds)).toEqual([8, 8, 8, 8, 8]);
    expect(result.check.violations).toEqual([]);
    expect(result.check.sequenceErrors).toEqual([]);
    expect(result.check.entries).toEqual([8, 8, 8, 8, 8]);
    expect(result.check.maxCertainlyInCS).toBe(1);
    // 5 × (start + 8 × 4 CS events + done)
    expect(result.check.records).toBe(5 * (1 + 8 * 4 + 1));
    for (const r of result.reports) {
      expect(r!.messages.delivered).toBeGreaterThan(0);
      expect(r!.errors).toEqual([]);
    }
    console.log(
      `cluster n=5: ${result.durationMs} ms, ${result.check.records} log records, ` +
        `entry wait p50 ${result.reports.map((r) => r!.entryWaitMs.p50.toFixed(1)).join('/')} ms`,
    );
  });

  it('rejects an invalid configuration before spawning anything', async () => {
    const dir = tempDir();
    const loaded = await createLocalCluster({ dir, n: 2, algorithm: 'x', workload: { rounds: 1 } });
    const raw = JSON.parse(readFileSync(loaded.path, 'utf8'));
    const { writeFileSync } = await import('node:fs');
    writeFileSync(loaded.path, JSON.stringify({ ...raw, processes: raw.processes.slice(0, 1) }));
    expect(() => launchCluster({ configPath: loaded.path })).toThrow(/ids 0 … 1 exactly once, got \[0\]/);
    writeFileSync(loaded.path, JSON.stringify({ ...raw, bounds: { l: 1, k: 1 } }));
    expect(() => loadClusterConfig(loaded.path)).toThrow(/0 ≤ l < k ≤ n/);
    writeFileSync(loaded.path, JSON.stringify({ ...raw, workload: { rounds: -1 } }));
    expect(() => loadClusterConfig(loaded.path)).toThrow(/workload.rounds/);
    writeFileSync(loaded.path, JSON.stringify({ ...raw, ca: undefined }));
    expect(() => loadClusterConfig(loaded.path)).toThrow(/ca is required unless insecure/);
    // a problem spec instead of bounds: validated by the spec constructors, never both
    writeFileSync(loaded.path, JSON.stringify({ ...raw, spec: { kind: 'h-out-of-k', k: 2 } }));
    expect(clusterProblemSpec(loadClusterConfig(loaded.path).config)).toMatchObject({
      kind: 'h-out-of-k',
      k: 2,
      n: 2,
    });
    writeFileSync(loaded.path, JSON.stringify({ ...raw, spec: { kind: 'group', m: 0 } }));
    expect(() => loadClusterConfig(loaded.path)).toThrow(/spec.m/);
    const local = { kind: 'local', edges: [[0, 1]], l: [0, 0], k: [3, 2] };
    writeFileSync(loaded.path, JSON.stringify({ ...raw, spec: local }));
    expect(() => loadClusterConfig(loaded.path)).toThrow(/spec: local CS: P0 needs .*k_0 = 3/);
    writeFileSync(
      loaded.path,
      JSON.stringify({ ...raw, spec: { ...local, k: [2, 2] }, bounds: { l: 0, k: 1 } }),
    );
    expect(() => loadClusterConfig(loaded.path)).toThrow(/bounds or spec, not both/);
    writeFileSync(loaded.path, JSON.stringify({ ...raw, spec: { ...local, k: [2, 2] } }));
    expect(clusterProblemSpec(loadClusterConfig(loaded.path).config)).toMatchObject({ kind: 'local', n: 2 });
  });

  it('reports a member that fails (unknown algorithm) with its error, not a hang', async () => {
    const dir = tempDir();
    const loaded = await createLocalCluster({
      dir,
      n: 2,
      algorithm: join(fixtures, 'does-not-exist.ts'),
      workload: { rounds: 1 },
    });
    const result = await launchCluster({ configPath: loaded.path, timeoutMs: noProgressMs() }).done;
    expect(result.ok).toBe(false);
    // the one member main: a configuration error is one line on stderr and exit code 78 (EX_CONFIG)
    expect(result.reason).toMatch(
      /P\d exited with code 78 without a report: critsec member: cannot load algorithm/,
    );
    // the death is named and logged: `crashed` with the exit code (the check then knows it is gone)
    expect(result.deaths).toEqual([
      { id: expect.any(Number), code: 78, signal: null, afterMs: expect.any(Number) },
    ]);
    const { records } = readSharedLog(loaded.resolve(loaded.config.log));
    expect(records.filter((r) => r.e === 'crashed')).toEqual([
      { p: result.deaths[0]!.id, e: 'crashed', t: expect.any(Number), code: 78 },
    ]);
  });
});
