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
});
