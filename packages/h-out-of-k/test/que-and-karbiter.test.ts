/**
 * Unit checks of `Que`'s priority order and of `asHKArbiter`, killing mutants that survived
 * `npm run test:mutation` (README, "Mutation score").
 */
import { ConfigurationError } from '@critsec/core';
import { uniformKArbiter } from '@critsec/coteries';
import { CLOCK_MAX } from '@critsec/transport';
import { describe, expect, it } from 'vitest';
import { asHKArbiter } from '../src/index.js';
import { Que } from '../src/que.js';

const entry = (process: number, clock: number, seq: number) => ({
  clock,
  process,
  units: 1,
  seq,
  status: 'wait' as const,
});

describe('Que priority order (Sec. 4.1, with the ceiling rule)', () => {
  it('below CLOCK_MAX equal clocks are ordered by id, whatever the request counts', () => {
    const q = new Que('ceiling-fair');
    q.insert(entry(2, 5, 0));
    expect(q.insert(entry(1, 5, 7))).toBe(0);
    expect(q.toArray().map(([p]) => p)).toEqual([1, 2]);
  });

  it('at CLOCK_MAX by request count first (ceiling-fair), by id with the printed order', () => {
    const fair = new Que('ceiling-fair');
    fair.insert(entry(2, CLOCK_MAX, 0));
    fair.insert(entry(1, CLOCK_MAX, 7));
    expect(fair.toArray().map(([p]) => p)).toEqual([2, 1]);
    const printed = new Que('printed');
    printed.insert(entry(2, CLOCK_MAX, 0));
    printed.insert(entry(1, CLOCK_MAX, 7));
    expect(printed.toArray().map(([p]) => p)).toEqual([1, 2]);
  });
});

describe('asHKArbiter', () => {
  const karbiter = uniformKArbiter(5, 2);

  it('refuses anything but a k-arbiter with an integer k ≥ 1 and a quorumOf, with a ConfigurationError', () => {
    const quorumOf = () => [0, 1, 2];
    const bad: unknown[] = [
      undefined,
      { n: 5, k: '2', quorumOf },
      { n: 5, k: 1.5, quorumOf },
      { n: 5, k: 0, quorumOf },
      { n: 5, k: 2, quorumOf: 'no' },
    ];
    for (const b of bad) {
      expect(() => asHKArbiter(b as never)).toThrow(ConfigurationError);
      expect(() => asHKArbiter(b as never)).toThrow(
        /^asHKArbiter\(karbiter\): expected a k-arbiter .*, got k = /,
      );
    }
  });

  it('uses the same quorum for every h in 1..k and refuses other h', () => {
    const a = asHKArbiter(karbiter);
    for (const h of [1, 2]) expect(a.quorumSet(h)).toBe(karbiter);
    for (const h of [0, 3, 1.5]) expect(() => a.quorumSet(h)).toThrow(ConfigurationError);
    expect(a.description).toBe(`${karbiter.description} (same quorum for every h)`);
    const json = a.toJSON();
    expect(json.assignments).toEqual([karbiter.toJSON().assignment, karbiter.toJSON().assignment]);
  });
});
