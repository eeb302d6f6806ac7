/*
 * Every coterie, arbiter and group-system constructor refuses, from its closed form and before
 * building anything, a size that would end the process with V8's uncatchable heap out-of-memory
 * error (issue 26: `majority(1e9)` and `majority(2^53 − 1)` died after 14–16 s).
 */
import { ConfigurationError } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import {
  cubeHKArbiter,
  cubeKArbiter,
  grid,
  MAX_QUORUM_MEMBERSHIPS,
  MAX_QUORUM_SET_BITS,
  majority,
  surficial,
  tree,
  triangle,
  uniformHKArbiter,
  uniformKArbiter,
  wall,
  wheel,
} from '../src/index.js';
import { checkConstructionSize } from '../src/size-limit.js';

describe('checkConstructionSize: the limits, exactly', () => {
  it('accepts 2^25 memberships and 2^32 bits, refuses one more of either', () => {
    const n = 2 ** 16;
    expect(() =>
      checkConstructionSize('x(n)', n, { memberships: MAX_QUORUM_MEMBERSHIPS, quorums: n }),
    ).not.toThrow();
    expect(() =>
      checkConstructionSize('x(n)', n, { memberships: MAX_QUORUM_MEMBERSHIPS + 1, quorums: 1 }),
    ).toThrow(ConfigurationError);
    expect(() => checkConstructionSize('x(n)', n, { memberships: 1, quorums: n + 1 })).toThrow(
      ConfigurationError,
    );
    expect(MAX_QUORUM_SET_BITS).toBe(n * n);
  });
});

describe('every constructor refuses a size beyond the limits up front, with a ConfigurationError naming it', () => {
  it.each([2 ** 53 - 1, 1e9, 8192])('majority(%d)', (n) => {
    expect(() => majority(n)).toThrow(ConfigurationError);
    expect(() => majority(n)).toThrow(
      new RegExp(
        `^majority\\(n\\): n = ${n} would build (more than 2\\^53|[\\d,]+) quorum memberships, more than the 33,554,432 \\(2\\^25, about 40 bytes each\\) one construction may hold: beyond it V8 ends the process with a heap out-of-memory error no code can catch; take a smaller n or a construction with smaller quorums`,
      ),
    );
  });

  it('tree(131071): 65,536 quorums of n bits, past 2^32 bits', () => {
    expect(() => tree(131_071)).toThrow(
      /^tree\(n\): n = 131071 would validate 65,536 quorums of n bits each, 8,589,869,056 bits, more than the 4,294,967,296 \(2\^32, 512 MiB\) one construction may hold/,
    );
  });

  it.each([
    ['grid', () => grid(1e9)],
    ['tree', () => tree(2 ** 31 - 1)],
    ['wall', () => wall([1, 1e9])],
    ['wheel', () => wheel(1e9)],
    ['triangle', () => triangle(1e5)],
    ['uniformKArbiter', () => uniformKArbiter(1e9, 2)],
    ['uniformHKArbiter', () => uniformHKArbiter(1e9, 1e8)],
    ['cubeKArbiter', () => cubeKArbiter(1e9, 1)],
    ['cubeHKArbiter', () => cubeHKArbiter(100, 60)],
    ['surficial', () => surficial(1e9, 2, { fit: 'wrap' })],
  ] as const)('%s', (name, build) => {
    expect(build).toThrow(ConfigurationError);
    expect(build).toThrow(/ one construction may hold: beyond it V8 ends the process/);
    expect(build).toThrow(new RegExp(`^${name === 'wheel' || name === 'triangle' ? 'wall' : name}\\(`));
  });

  it('what fits still builds: grid(2500), tree(1023), uniformKArbiter(300, 2)', () => {
    expect(grid(2_500).n).toBe(2_500);
    expect(tree(1_023).n).toBe(1_023);
    expect(uniformKArbiter(300, 2).n).toBe(300);
  });
});
