/** Seeded pseudo-random numbers (pure-rand's Mersenne Twister). Internal to the package. */
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { mersenne } from 'pure-rand/generator/mersenne';

export interface Random {
  /** Uniform in [0, 1). */
  float(): number;
  /** Uniform integer in [from, to]. */
  int(from: number, to: number): number;
}

export function seededRandom(seed: number): Random {
  const rng = mersenne(seed | 0);
  return {
    float: () => uniformFloat64(rng),
    int: (from, to) => uniformInt(rng, from, to),
  };
}
