import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { CLOCK_MAX, counterSchema, tick, timestampSchema, witness } from '../src/index.js';

describe('saturating Lamport clocks', () => {
  it('tick adds one below the ceiling and stays at it', () => {
    expect(tick(0)).toBe(1);
    expect(tick(41)).toBe(42);
    expect(tick(CLOCK_MAX - 1)).toBe(CLOCK_MAX);
    expect(tick(CLOCK_MAX)).toBe(CLOCK_MAX);
  });

  it('witness is max(c, ts)', () => {
    expect(witness(3, 7)).toBe(7);
    expect(witness(7, 3)).toBe(7);
    expect(witness(0, CLOCK_MAX)).toBe(CLOCK_MAX);
  });

  it('every clock reachable from an accepted timestamp is itself accepted', () => {
    for (const ts of [0, 1, 2 ** 40, CLOCK_MAX - 1, CLOCK_MAX]) {
      expect(v.is(timestampSchema, ts)).toBe(true);
      let c = witness(0, ts);
      for (let i = 0; i < 3; i++) {
        c = tick(c);
        expect(v.is(counterSchema, c), `after ts ${ts} and ${i + 1} ticks: ${c}`).toBe(true);
      }
    }
    expect(v.is(timestampSchema, CLOCK_MAX + 1)).toBe(false);
  });
});
