import { describe, expect, it } from 'vitest';
import { IdIndex } from '../src/id-index.js';

describe('IdIndex', () => {
  it('gives the position of every id of the list and −1 for any other, like an array of n', () => {
    const list = [17, 3, 42, 0, 99, 3];
    const index = new IdIndex(list);
    const dense = new Int32Array(100).fill(-1);
    list.forEach((id, x) => {
      dense[id] = x;
    });
    for (let id = -2; id < 102; id++)
      expect(index.indexOf(id), `id ${id}`).toBe(id >= 0 && id < 100 ? dense[id] : -1);
    expect(new IdIndex([]).indexOf(0)).toBe(-1);
  });

  it('finds every member of a grid quorum of n = 10,000 and nothing else', () => {
    const n = 10_000;
    const row = 37;
    const col = 58;
    const quorum = [
      ...Array.from({ length: 100 }, (_, c) => row * 100 + c),
      ...Array.from({ length: 100 }, (_, r) => r * 100 + col).filter((id) => id !== row * 100 + col),
    ];
    const index = new IdIndex(quorum);
    const dense = new Int32Array(n).fill(-1);
    quorum.forEach((id, x) => {
      dense[id] = x;
    });
    const wrong: number[] = [];
    for (let id = 0; id < n; id++) if (index.indexOf(id) !== dense[id]) wrong.push(id);
    expect(wrong).toEqual([]);
    expect([index.indexOf(1.5), index.indexOf(n), index.indexOf(-1)]).toEqual([-1, -1, -1]);
  });
});
