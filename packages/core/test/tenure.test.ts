import { describe, expect, it, vi } from 'vitest';
import { CritsecError, hasTenure, monotonicClock, TenureExpiredError } from '../src/index.js';

describe('time-bounded grants: the core contracts (issue 28)', () => {
  it('hasTenure tells an object with tenure() from one without', () => {
    const plain = { id: 0, entry: async () => {}, exit: async () => {}, on: () => () => {} };
    expect(hasTenure(plain as never)).toBe(false);
    expect(hasTenure({ ...plain, tenure: () => undefined } as never)).toBe(true);
  });

  it('TenureExpiredError is a typed CritsecError with its token and overdue time', () => {
    const e = new TenureExpiredError('P1: expired', { token: 7, overdue: 3 });
    expect(e).toBeInstanceOf(CritsecError);
    expect([e.code, e.name, e.token, e.overdue]).toEqual(['TENURE_EXPIRED', 'TenureExpiredError', 7, 3]);
  });

  it('monotonicClock reads performance.now() and its timers can be cancelled', () => {
    vi.useFakeTimers();
    try {
      const clock = monotonicClock();
      const fired: string[] = [];
      clock.setTimer(5, () => fired.push('a'));
      const cancel = clock.setTimer(5, () => fired.push('b'));
      cancel();
      clock.setTimer(-1, () => fired.push('c'));
      vi.advanceTimersByTime(5);
      expect(fired).toEqual(['c', 'a']);
      expect(typeof clock.now()).toBe('number');
    } finally {
      vi.useRealTimers();
    }
  });
});
