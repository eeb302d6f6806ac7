import { globalSpec, groupSpec } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import { SafetyMonitor } from '../src/index.js';

describe('SafetyMonitor', () => {
  it('counts the most processes InCS at once, the initial configuration included', () => {
    const m = new SafetyMonitor(globalSpec(0, 3, 4), ['InCS', 'OutCS', 'OutCS', 'OutCS']);
    expect(m.maxInCS).toBe(1);
    m.change(1, 'InCS', 1);
    m.change(2, 'InCS', 2);
    m.change(0, 'OutCS', 3);
    m.change(1, 'OutCS', 4);
    expect(m.inCS).toBe(1);
    expect(m.maxInCS).toBe(3);
    expect(m.violations).toEqual([]);
  });

  it('reports a group violation at the state change that causes it', () => {
    const m = new SafetyMonitor(groupSpec(2, 3), ['OutCS', 'OutCS', 'OutCS']);
    m.setRequest(0, 0);
    m.change(0, 'InCS', 1);
    m.setRequest(1, 0);
    expect(m.change(1, 'InCS', 2)).toBeNull();
    m.setRequest(2, 1);
    expect(m.change(2, 'InCS', 3)?.message).toMatch(/together/);
    expect(m.maxInCS).toBe(3);
  });

  it('checks only the bound it is given (upper: too many InCS; lower: too few)', () => {
    const spec = globalSpec(1, 2, 3);
    const upper = new SafetyMonitor(spec, ['InCS', 'OutCS', 'OutCS'], [], { bound: 'upper' });
    const lower = new SafetyMonitor(spec, ['InCS', 'OutCS', 'OutCS'], [], { bound: 'lower' });
    expect(upper.change(0, 'OutCS', 1)).toBeNull();
    expect(lower.change(0, 'OutCS', 1)?.message).toMatch(/fewer than l = 1/);
    expect(lower.violation()?.message).toMatch(/fewer than l = 1/);
    for (const [i, t] of [
      [0, 2],
      [1, 3],
      [2, 4],
    ] as const)
      upper.change(i, 'InCS', t);
    expect(upper.violations.map((v) => v.step)).toEqual([4]);
    expect(upper.violation()?.message).toMatch(/more than k = 2/);
  });

  it('replaces the request of a process InCS only when asked (a restart)', () => {
    const m = new SafetyMonitor(groupSpec(2, 2), ['InCS', 'OutCS'], [0]);
    m.setRequest(0, 1);
    expect(m.requests[0]).toBe(0);
    m.setRequest(0, 1, true);
    m.setRequest(1, 1);
    expect(m.change(1, 'InCS', 1)).toBeNull();
  });
});
