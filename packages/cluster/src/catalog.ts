/*
 * The algorithms `critsec` runs, by name, with one line each on what they solve and where they
 * come from. The families that build them: `family-global.ts` (the global (l,k)-CS),
 * `family-h-out-of-k.ts`, `family-group-mutex.ts`, `family-local-cs.ts`.
 */

/** The algorithms of the global (l,k)-CS family. */
export const GLOBAL_ALGORITHMS = ['mutex', 'ricart-agrawala', 'mutin', 'kmutex', 'gcs'] as const;

/** An algorithm of the global (l,k)-CS family. */
export type GlobalAlgorithmName = (typeof GLOBAL_ALGORITHMS)[number];

/** The algorithms, in the order the CLI lists them. */
export const ALGORITHM_NAMES = [...GLOBAL_ALGORITHMS, 'h-out-of-k', 'group-mutex', 'local-cs'] as const;

/** An algorithm the CLI runs. */
export type AlgorithmName = (typeof ALGORITHM_NAMES)[number];

/** One line per algorithm: what it solves and where it comes from. */
export const ALGORITHM_TITLES: Readonly<Record<AlgorithmName, string>> = {
  mutex: "Maekawa's quorum mutual exclusion (Maekawa 1985, Sanders 1987)",
  'ricart-agrawala': 'Ricart–Agrawala mutual exclusion, the O(n) baseline (CACM 1981)',
  mutin: 'MUTIN(l), l-mutual inclusion (Kamei & Kakugawa 2019, Sec. 4, Algorithms 1–2)',
  kmutex: 'k-mutual exclusion = Co-MUTIN(n−k) (Kamei & Kakugawa 2019, Sec. 5, Thm. 1)',
  gcs: '(l,k)-GCS = compose(MUTIN(l), Co-MUTIN(n−k)) (Kamei & Kakugawa 2019, Sec. 5, Algorithm 3)',
  'h-out-of-k': 'h-out-of-k mutual exclusion with (h,k)-arbiters (Manabe & Tajima, Sec. 4, Fig. 1)',
  'group-mutex':
    'group mutual exclusion, Maekawa_M / Maekawa_S over group quorum systems (Joung 2003, Sec. 4)',
  'local-cs': 'the local (lᵢ,kᵢ)-CS on a graph: LMUTIN, LMUTEX, LKCS (Kamei & Kakugawa 2017, Algorithms 1–7)',
};

/** True if `name` is one of {@link ALGORITHM_NAMES}. */
export function isAlgorithmName(name: string): name is AlgorithmName {
  return (ALGORITHM_NAMES as readonly string[]).includes(name);
}
