import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { beats } from '../src/index.js';
import { RequestQueue } from '../src/request-queue.js';

type Op =
  | { kind: 'push'; pid: number; ts: number; failed: boolean }
  | { kind: 'pop' }
  | { kind: 'remove'; pid: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('push' as const), pid: fc.nat(15), ts: fc.nat(6), failed: fc.boolean() }),
  fc.constant({ kind: 'pop' as const }),
  fc.record({ kind: fc.constant('remove' as const), pid: fc.nat(15) }),
);

describe('RequestQueue (the arbiter’s priority queue)', () => {
  it('beats orders by timestamp, then by process id', () => {
    expect(beats(1, 5, 2, 0)).toBe(true);
    expect(beats(2, 0, 1, 5)).toBe(false);
    expect(beats(3, 1, 3, 2)).toBe(true);
    expect(beats(3, 2, 3, 1)).toBe(false);
    expect(beats(3, 2, 3, 2)).toBe(false);
  });

  it('behaves like a sorted list under any sequence of push / pop / remove (one entry per process)', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
        const q = new RequestQueue(2, 16); // starts small: exercises growth
        let model: [number, number, boolean][] = [];
        const sort = () => model.sort((a, b) => (beats(a[1], a[0], b[1], b[0]) ? -1 : 1));
        for (const o of ops) {
          if (o.kind === 'push') {
            if (model.some((e) => e[0] === o.pid)) continue;
            q.push(o.pid, o.ts, o.failed);
            model.push([o.pid, o.ts, o.failed]);
            sort();
          } else if (o.kind === 'pop') {
            if (model.length === 0) continue;
            expect([q.headPid, q.headTs, q.headFailed]).toEqual(model[0]);
            q.pop();
            model.shift();
          } else {
            const at = q.indexOf(o.pid);
            expect(at >= 0).toBe(model.some((e) => e[0] === o.pid));
            expect(q.has(o.pid)).toBe(at >= 0);
            if (at >= 0) {
              expect(q.tsAt(at)).toBe(model.find((e) => e[0] === o.pid)![1]);
              q.removeAt(at);
              model = model.filter((e) => e[0] !== o.pid);
            }
          }
          expect(q.size).toBe(model.length);
          expect(q.toSortedArray()).toEqual(model);
          expect(q.headPid).toBe(model[0]?.[0] ?? -1);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('markHeadFailed flags only the head', () => {
    const q = new RequestQueue(4, 4);
    q.push(3, 5, false);
    q.push(1, 2, false);
    q.markHeadFailed();
    expect(q.toSortedArray()).toEqual([
      [1, 2, true],
      [3, 5, false],
    ]);
  });

  it('an empty queue has no head: headPid −1, headTs NaN, headFailed false — also after its last entry left', () => {
    const q = new RequestQueue(2, 4);
    expect([q.headPid, q.headTs, q.headFailed]).toEqual([-1, Number.NaN, false]);
    q.push(2, 7, true); // a failed entry at slot 0, then gone: nothing of it may show
    q.pop();
    expect([q.size, q.headPid, q.headTs, q.headFailed]).toEqual([0, -1, Number.NaN, false]);
    q.push(3, 9, false);
    q.removeAt(q.indexOf(3));
    expect([q.size, q.headPid, q.headTs, q.headFailed]).toEqual([0, -1, Number.NaN, false]);
  });

  it('a capacity below 1 still holds entries (it starts at one slot and grows)', () => {
    for (const capacity of [0, -3]) {
      const q = new RequestQueue(capacity, 8);
      q.push(5, 3, false);
      q.push(2, 1, true);
      q.push(7, 2, false);
      expect(q.size).toBe(3);
      expect(q.toSortedArray()).toEqual([
        [2, 1, true],
        [7, 2, false],
        [5, 3, false],
      ]);
    }
  });
});
