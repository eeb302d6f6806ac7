/*
 * The one PRNG. A failing test prints its seed so that the run replays exactly — which holds
 * only while the generator's stream never changes: the first draws of a few seeds are pinned
 * here (a changed generator or seeding fails this file, before it silently changes every
 * recorded trace and pinned counterexample seed in the repository).
 */
import { describe, expect, it } from 'vitest';
import { createRng } from '../src/index.js';

describe('createRng', () => {
  it('the stream of seed 1 is pinned (sfc32 seeded by splitmix32, 12 draws discarded)', () => {
    const r = createRng(1);
    expect([r.next(), r.next(), r.int(1000), r.chance(0.5)]).toEqual([
      0.4256499295588583,
      0.79042171058245,
      691,
      false,
    ]);
    const f = createRng(1).fork('net');
    expect([f.next(), f.int(97)]).toEqual([0.41472376487217844, 9]);
  });

  it('same seed, same stream; forks are stable and independent of the parent’s draws', () => {
    const a = createRng(42);
    const b = createRng(42);
    a.next();
    const draws = (g: ReturnType<typeof createRng>) => Array.from({ length: 8 }, () => g.next());
    expect(draws(a.fork('x'))).toEqual(draws(b.fork('x')));
    expect(draws(createRng(42).fork('x'))).not.toEqual(draws(createRng(42).fork('y')));
    expect(draws(createRng(1))).not.toEqual(draws(createRng(2 ** 32 + 1)));
  });

  it('draws stay in range and are roughly uniform (10 bins, 100,000 draws of seed 7)', () => {
    const r = createRng(7);
    const bins = new Array<number>(10).fill(0);
    let outside = 0;
    for (let i = 0; i < 100_000; i++) {
      const x = r.next();
      if (!(x >= 0 && x < 1)) outside++;
      else bins[Math.floor(x * 10)]!++;
    }
    expect(outside).toBe(0);
    for (const count of bins) expect(Math.abs(count - 10_000)).toBeLessThan(500);
    const ints = new Set(Array.from({ length: 1_000 }, () => r.int(5)));
    expect([...ints].sort()).toEqual([0, 1, 2, 3, 4]);
    expect(r.pick(['only'])).toBe('only');
  });
});
