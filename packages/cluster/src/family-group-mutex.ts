/*
 * Group mutual exclusion for the CLI (`critsec simulate group-mutex --n N --m M --variant M|S
 * [--system surficial|grid|projective-plane]`): Maekawa_M (Joung 2003, Sec. 4.2, Figs. 5–6) or
 * Maekawa_S (Sec. 4.3, Figs. 7–8) over the surficial m-group quorum system (Fig. 3) or T_m of an
 * ordinary coterie. Every process starts OutCS; each entry names a group drawn uniformly from
 * 0..m−1.
 */
import { ConfigurationError, groupSpec } from '@critsec/core';
import { type GroupQuorumSystem, groupFromCoterie, surficial, surficialSize } from '@critsec/coteries';
import { groupMutex, groupMutexBounds } from '@critsec/group-mutex';
import { ALGORITHM_TITLES } from './catalog.js';
import { buildCoterie, maxQuorumSize } from './coterie-choice.js';
import { checkFootprint } from './footprint.js';
import { describeInitial, parseChoice, parseInit, parseInteger } from './option-values.js';
import type { ClusterInput, ResolvedCluster } from './resolved.js';

/** The group quorum systems the CLI offers: the surficial system, or T_m of a coterie. */
export const SYSTEM_NAMES = ['surficial', 'grid', 'projective-plane'] as const;

/** Maekawa_M and Maekawa_S. */
export const VARIANT_NAMES = ['M', 'S'] as const;

const DEFAULT_N = 25;
const DEFAULT_M = 2;

/**
 * The surficial system over n processes: exact when n = k²·m(m−1)/2, else with nodes mapped to
 * processes mod n (`fit: 'wrap'`, the paper's remark on other node-to-process mappings).
 */
function surficialFor(n: number, m: number): GroupQuorumSystem {
  const squares = (m * (m - 1)) / 2;
  const k = Math.round(Math.sqrt(n / squares));
  return surficial(n, m, { fit: surficialSize(m, k) === n ? 'exact' : 'wrap' });
}

/** The side k `surficial` takes for n under `'exact'` or `'wrap'`: the least k with k²·m(m−1)/2 ≥ n. */
function surficialSide(n: number, m: number): number {
  let k = Math.max(1, Math.floor(Math.sqrt(n / ((m * (m - 1)) / 2))));
  while (surficialSize(m, k) < n) k++;
  while (k > 1 && surficialSize(m, k - 1) >= n) k--;
  return k;
}

/**
 * Weighs group mutual exclusion's memory before anything is built: n · m · c quorum memberships
 * (c = (m−1)·k, at most n, for the surficial system of side {@link surficialSide}; the coterie's
 * |Q|max for T_m).
 * @throws ConfigurationError from `checkFootprint` when it does not fit.
 */
function checkGroupFootprint(n: number, m: number, systemName: (typeof SYSTEM_NAMES)[number]): void {
  const c =
    systemName === 'surficial'
      ? Math.min(n, (m - 1) * surficialSide(n, m))
      : Math.min(n, maxQuorumSize(systemName, n));
  checkFootprint({
    n,
    memberships: n * m * c,
    what:
      systemName === 'surficial' ? `the surficial ${m}-group system` : `T_${m} of the ${systemName} coterie`,
    remedy: 'a smaller --n or --m',
  });
}

/**
 * Validates `group-mutex`'s options and builds its group quorum system, factory, spec (never two
 * groups InCS together), request draw and the paper's bounds without contention (Maekawa_M: 3c
 * messages per entry, delay 2, Theorems 5–6; Maekawa_S: 2c + 1 messages, delay c + 1, Theorem 9).
 *
 * @throws ConfigurationError for n < 1, m < 2 (surficial) or m < 1, an unknown variant or
 *   system, a coterie that does not exist for n, a system whose estimated memory (n·m·c quorum
 *   memberships, footprint.ts) exceeds this process's
 *   heap, `--l`/`--k` given, or an initial configuration with a
 *   process InCS.
 */
export function resolveGroupMutex(input: ClusterInput): ResolvedCluster {
  const n = parseInteger('n', input.n ?? DEFAULT_N, 1);
  const m = parseInteger('m', input.m ?? DEFAULT_M, 1);
  if (input.l !== undefined || input.k !== undefined) {
    throw new ConfigurationError(
      'group-mutex takes no --l or --k: processes of one group may all be InCS together; give --m',
    );
  }
  const variant = parseChoice('variant', String(input.variant ?? 'M'), VARIANT_NAMES);
  const systemName = parseChoice('system', input.system ?? 'surficial', SYSTEM_NAMES);
  const init = input.init ?? 'none';
  const initial = parseInit(init === 'default' ? 'none' : init, n, 0);
  if (initial.some((s) => s === 'InCS')) {
    throw new ConfigurationError(
      `--init ${init}: group-mutex starts every process OutCS (no group in session); leave --init out or give none`,
    );
  }
  if (systemName === 'surficial' && m < 2) {
    throw new ConfigurationError(`--m must be at least 2 for the surficial system, got ${m}`);
  }
  checkGroupFootprint(n, m, systemName);
  const system =
    systemName === 'surficial' ? surficialFor(n, m) : groupFromCoterie(buildCoterie(systemName, n), m);
  const options = { system, variant } as const;
  const b = groupMutexBounds(options);
  const sizes = b.cMin === b.c ? `${b.c}` : `${b.cMin}–${b.c}`;
  return {
    algorithm: 'group-mutex',
    n,
    l: 0,
    k: n,
    coterieName: null,
    coterie: null,
    quorumSize: { min: b.cMin, max: b.c },
    mx: null,
    structure: `${system.description}, m = ${m}, quorums ${sizes}, degree ${b.degree}, Maekawa_${variant}`,
    options: { m, variant, system: systemName },
    spec: groupSpec(m, n),
    sequentialSpec: null,
    factory: groupMutex(options) as ResolvedCluster['factory'],
    request: (rng) => rng.int(m),
    requestDescription: `group uniform in 0..${m - 1} per entry`,
    initial,
    initialDescription: describeInitial(initial),
    init: 'none',
    bounds: {
      messagesPerPair: b.uncontended.max,
      waitingTimeEntry: b.syncDelay,
      waitingTimeExit: 0,
      source:
        variant === 'M'
          ? 'Joung 2003, Theorems 5–6 (Maekawa_M: 3c per entry without contention, ≤ 3c + 3c·max[g] per request as the paper counts, ≤ c(2 + 6·max[g]) per pair under causal attribution; delay 2)'
          : 'Joung 2003, Theorem 9 (Maekawa_S: 2c + 1 messages per entry without contention, ≤ 3c with early requests; delay c + 1)',
      formula: variant === 'M' ? '3c' : '2c + 1',
    },
    title: ALGORITHM_TITLES['group-mutex'],
  };
}
