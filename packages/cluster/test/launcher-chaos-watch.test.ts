import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChaosStuckError, EntryWatch } from '../src/launcher-chaos-watch.js';

afterEach(() => {
  vi.useRealTimers();
});

const options = (ended: Promise<string>) => ({
  stallTimeoutMs: 50,
  what: () => 'before kill 1',
  ended,
  where: () => ({ kills: 0, restarts: 0, entries: 0 }),
  dir: '/nowhere',
});

describe('EntryWatch: the progress-budgeted wait of a chaos run', () => {
  it('runs the stall clock only once every member of the launch has been ready: a slow start is no stall', async () => {
    vi.useFakeTimers();
    const watch = new EntryWatch(2);
    let outcome: unknown = 'pending';
    watch.until(1, options(new Promise<string>(() => {}))).then(
      () => (outcome = 'resolved'),
      (err: unknown) => (outcome = err),
    );
    await vi.advanceTimersByTimeAsync(10_000); // members still starting: no stall
    expect(outcome).toBe('pending');
    watch.see({ id: 0, event: 'ready' });
    await vi.advanceTimersByTimeAsync(10_000); // one of two ready
    expect(outcome).toBe('pending');
    watch.see({ id: 1, event: 'ready' });
    await vi.advanceTimersByTimeAsync(60);
    expect(outcome).toBeInstanceOf(ChaosStuckError);
    expect((outcome as Error).message).toMatch(
      /no entry completed in the whole cluster for 50 ms before kill 1/,
    );
  });

  it('resolves on the target entry and tracks the holders', async () => {
    const watch = new EntryWatch(1);
    watch.see({ id: 0, event: 'ready' });
    const waited = watch.until(1, options(new Promise<string>(() => {})));
    watch.see({ id: 0, event: 'entry-done', round: 1 });
    await waited;
    expect([...watch.holders]).toEqual([0]);
    watch.see({ id: 0, event: 'exit-done', round: 1 });
    expect(watch.holders.size).toBe(0);
  });
});
