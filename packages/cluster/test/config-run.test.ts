import { describe, expect, it } from 'vitest';
import { type RunSettings, resolveClusterRun, resolveRun } from '../src/index.js';

describe('resolveRun: one settings type for the simulated and the real run (issue 25)', () => {
  it('the same defaults and parsing either way; only the named unit of think and hold differs', () => {
    const input = { algorithm: 'mutex', n: 4, rounds: '3', seed: '7', workload: 'sequential', think: '0.5' };
    const simulated = resolveRun(input, 'time units');
    const real = resolveClusterRun(input);
    expect(simulated.timeUnit).toBe('time units');
    expect(real.timeUnit).toBe('ms');
    const pick = ({ rounds, seed, workload, think, hold }: RunSettings) => ({
      rounds,
      seed,
      workload,
      think,
      hold,
    });
    expect(pick(simulated)).toEqual({ rounds: 3, seed: 7, workload: 'sequential', think: 0.5, hold: 1 });
    expect(pick(real)).toEqual(pick(simulated));
    expect(real.cluster.n).toBe(simulated.cluster.n);
  });

  it('refuses a bad value with the same one-line message in both', () => {
    const bad = { algorithm: 'mutex', n: 4, workload: 'bursty' };
    expect(() => resolveRun(bad, 'time units')).toThrow(/workload/);
    expect(() => resolveClusterRun(bad)).toThrow(/workload/);
    expect(() => resolveRun({ algorithm: 'mutex', hold: -1 }, 'ms')).toThrow(/hold/);
  });
});
