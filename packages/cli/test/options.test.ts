import { ConfigurationError } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import { resolveBench, resolveSimulation } from '../src/index.js';
import { resolveClusterRun } from '@critsec/cluster';

function message(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigurationError);
    const m = (err as Error).message;
    expect(m).not.toContain('\n');
    return m;
  }
  throw new Error('expected a ConfigurationError');
}

describe('resolveSimulation / resolveBench / resolveClusterRun', () => {
  it('has the documented defaults and validates the workload options', () => {
    const s = resolveSimulation({ algorithm: 'gcs' });
    expect([s.rounds, s.seed, s.delay, s.workload, s.think, s.hold]).toEqual([
      20,
      1,
      { kind: 'unit' },
      'concurrent',
      2,
      1,
    ]);
    expect(resolveSimulation({ algorithm: 'gcs', delay: 'exponential:3' }).delay).toEqual({
      kind: 'exponential',
      mean: 3,
    });
    expect(message(() => resolveSimulation({ algorithm: 'gcs', delay: 'gauss:1' }))).toContain(
      'unit, constant:D, uniform:MIN:MAX or exponential:MEAN',
    );
    expect(message(() => resolveSimulation({ algorithm: 'gcs', workload: 'bursty' }))).toBe(
      "unknown workload 'bursty'; accepted: concurrent, sequential",
    );
    expect(message(() => resolveSimulation({ algorithm: 'gcs', think: '-1' }))).toBe(
      "--think must be a number ≥ 0, got '-1'",
    );
    expect(message(() => resolveSimulation({ algorithm: 'gcs', rounds: '0' }))).toContain('--rounds');
  });

  it('bench: sizes, subsets and their errors', () => {
    expect(resolveBench({}).sizes).toEqual([16, 64, 256, 1024]);
    expect(resolveBench({ quick: true }).sizes).toEqual([16, 64]);
    expect(resolveBench({ n: '9,25', algorithms: 'gcs,mutex', coteries: 'grid' })).toMatchObject({
      sizes: [9, 25],
      algorithms: ['gcs', 'mutex'],
      coteries: ['grid'],
    });
    expect(message(() => resolveBench({ coteries: 'grid,hex' }))).toContain("unknown coterie 'hex'");
    expect(message(() => resolveBench({ n: '16,x' }))).toContain("--n must be an integer ≥ 1, got 'x'");
  });

  it('cluster: workloads, certificates checked up front', () => {
    expect(message(() => resolveClusterRun({ algorithm: 'gcs', n: 5, workload: 'bursty' }))).toBe(
      "unknown workload 'bursty'; accepted: concurrent, sequential",
    );
    expect(
      resolveClusterRun({ algorithm: 'gcs', n: 5, workload: 'sequential', params: { l: 1, k: 3 } }).workload,
    ).toBe('sequential');
    expect(message(() => resolveClusterRun({ algorithm: 'gcs', n: 5, certs: '/nonexistent-dir' }))).toContain(
      'missing ca.pem',
    );
    expect(resolveClusterRun({ algorithm: 'gcs', n: 5, params: { l: 1, k: 3 } })).toMatchObject({
      workload: 'concurrent',
      rounds: 20,
      think: 2,
      hold: 1,
    });
  });
});
