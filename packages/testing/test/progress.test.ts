import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { noProgressMs, progressWatchdog, waitForProgress } from '../src/index.js';

// The clock is faked: these tests are about what counts as progress, not about the machine's speed.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

describe('noProgressMs', () => {
  it('is two minutes unless CRITSEC_NO_PROGRESS_MS names a positive integer of ms', () => {
    vi.stubEnv('CRITSEC_NO_PROGRESS_MS', '');
    expect(noProgressMs()).toBe(120_000);
    vi.stubEnv('CRITSEC_NO_PROGRESS_MS', '5000');
    expect(noProgressMs()).toBe(5_000);
    for (const bad of ['0', '-1', '1.5', 'soon']) {
      vi.stubEnv('CRITSEC_NO_PROGRESS_MS', bad);
      expect(noProgressMs()).toBe(120_000);
    }
  });
});

describe('progressWatchdog', () => {
  it('never stalls while progress keeps coming, however long the run', async () => {
    const onStall = vi.fn();
    const w = progressWatchdog({ limitMs: 1_000, onStall });
    for (let i = 0; i < 100; i++) {
      await vi.advanceTimersByTimeAsync(900);
      w.progress();
    }
    expect(onStall).not.toHaveBeenCalled();
    expect(w.stalled).toBe(false);
    w.stop();
  });

  it('stalls once, after limitMs without progress, and not after stop()', async () => {
    const onStall = vi.fn();
    const w = progressWatchdog({ limitMs: 1_000, onStall });
    await vi.advanceTimersByTimeAsync(900);
    w.progress();
    await vi.advanceTimersByTimeAsync(900);
    expect(onStall).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(400);
    expect(onStall).toHaveBeenCalledExactlyOnceWith(1_000);
    expect(w.stalled).toBe(true);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(onStall).toHaveBeenCalledTimes(1);

    const quiet = vi.fn();
    progressWatchdog({ limitMs: 1_000, onStall: quiet }).stop();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(quiet).not.toHaveBeenCalled();
  });

  it('refuses a limit that is not a positive number of ms', () => {
    for (const limitMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => progressWatchdog({ limitMs, onStall: () => {} })).toThrow(RangeError);
  });
});

describe('waitForProgress', () => {
  it('waits as long as the measure keeps changing, and resolves when done', async () => {
    let count = 0;
    const wait = waitForProgress(() => count >= 50, {
      what: 'fifty steps',
      measure: () => count,
      limitMs: 1_000,
    });
    for (let i = 0; i < 50; i++) {
      await vi.advanceTimersByTimeAsync(800);
      count++;
    }
    await vi.advanceTimersByTimeAsync(10);
    await expect(wait).resolves.toBeUndefined();
  });

  it('fails after limitMs with the measure unchanged, naming what it waited for', async () => {
    let count = 0;
    const wait = waitForProgress(() => false, { what: 'the acks', measure: () => count, limitMs: 1_000 });
    let settled = false;
    void wait
      .catch(() => {})
      .finally(() => {
        settled = true;
      });
    const failed = expect(wait).rejects.toThrow('no progress for 1000 ms waiting for the acks');
    await vi.advanceTimersByTimeAsync(900);
    count++;
    await vi.advanceTimersByTimeAsync(900); // 1 800 ms in all, 900 since the last step: still waiting
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(200);
    await failed;
  });

  it('without a measure, limitMs bounds the whole wait (a single event)', async () => {
    const wait = waitForProgress(() => false, { what: 'the handshake', limitMs: 1_000 });
    const failed = expect(wait).rejects.toThrow('no progress for 1000 ms waiting for the handshake');
    await vi.advanceTimersByTimeAsync(1_010);
    await failed;
  });
});
