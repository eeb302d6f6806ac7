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
});
