import { mutexSpec } from '@critsec/core';
import { unitDelay } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { createCluster, type InvocationRecord } from '@critsec/harness';
import { centralMutex, channelTotal, exitEntryPairs, sequentialPairs } from '../src/index.js';

const rec = (process: number, op: 'entry' | 'exit', messages: number, more: Partial<InvocationRecord> = {}) =>
  ({ process, op, messages, start: 0, end: 1, aborted: false, extra: false, ...more }) as InvocationRecord;

describe('exit+entry pairs', () => {
  it('pairs the k-th completed entry with the k-th completed exit, process by process', () => {
    const records = [
      rec(1, 'entry', 3),
      rec(0, 'entry', 5),
      rec(1, 'entry', 9, { aborted: true }),
      rec(1, 'exit', 1),
      rec(0, 'exit', 2),
      rec(1, 'entry', 4),
      rec(1, 'exit', 6, { extra: true }),
      rec(0, 'entry', 7, { end: Number.NaN }),
      rec(1, 'exit', 2),
    ];
    const pairs = exitEntryPairs(records);
    expect(pairs.map((p) => [p.process, p.entry.messages, p.exit.messages])).toEqual([
      [1, 3, 1],
      [1, 4, 2],
      [0, 5, 2],
    ]);
    expect(pairs[0]!.entry).toBe(records[0]);
  });

  it('the sequential workload: every message in exactly one pair, by channel and type', async () => {
    const cluster = createCluster({ factory: centralMutex(), spec: mutexSpec(4), seed: 3, delay: unitDelay });
    const { result, pairs } = await sequentialPairs(cluster, 2);
    expect(result.ok).toBe(true);
    expect(pairs).toHaveLength(8);
    // the coordinator P0 asks itself: its REQUEST, GRANT and RELEASE are sent to itself
    for (const p of pairs)
      expect(p).toEqual({
        process: p.process,
        total: 3,
        byType: { ' REQUEST': 1, ' GRANT': 1, ' RELEASE': 1 },
      });
    expect(pairs.reduce((s, p) => s + p.total, 0)).toBe(result.messages.sent);
    expect(channelTotal(pairs[0]!, '')).toBe(3);
    expect(channelTotal(pairs[0]!, 'mx')).toBe(0);
  });

  it('channelTotal sums exactly one channel path (not its sub-channels)', () => {
    const pair = { process: 0, total: 6, byType: { 'lmin Query': 2, 'lmin/mx REQUEST': 3, ' X': 1 } };
    expect(channelTotal(pair, 'lmin')).toBe(2);
    expect(channelTotal(pair, 'lmin/mx')).toBe(3);
    expect(channelTotal(pair, '')).toBe(1);
  });
});
