/*
 * The descriptor of group mutual exclusion (the plug-in contract of @critsec/core, descriptor.ts;
 * `critsec simulate group-mutex --m 2 --variant M --system surficial`): Maekawa_M and Maekawa_S
 * (Joung 2003, Sec. 4, Figs. 5–8) over the surficial system (Fig. 3) or T_m of a coterie.
 */
import {
  type AlgorithmDescriptor,
  ConfigurationError,
  type CSFactory,
  defineAlgorithm,
  type MemoryEstimate,
  groupSpec,
  param,
  params,
} from '@critsec/core';
import {
  describeInitial,
  grantParamValues,
  parseAllOutCS,
  parseChoice,
  parseGrantParams,
  parseInteger,
} from '@critsec/core/kit';
import {
  coterieByName,
  type GroupQuorumSystem,
  groupFromCoterie,
  maxQuorumSize,
  surficial,
  surficialSize,
} from '@critsec/coteries';
import { groupMutexBounds } from './bounds.js';
import { groupMutex } from './group-mutex.js';

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
 * The memory of group mutual exclusion, before anything is built: n · m · c quorum memberships
 * (c = (m−1)·k, at most n, for the surficial system of side {@link surficialSide}; the coterie's
 * |Q|max for T_m).
 */
function groupEstimate(n: number, m: number, systemName: (typeof SYSTEM_NAMES)[number]): MemoryEstimate {
  const c =
    systemName === 'surficial'
      ? Math.min(n, (m - 1) * surficialSide(n, m))
      : Math.min(n, maxQuorumSize(systemName, n));
  return {
    n,
    memberships: n * m * c,
    what:
      systemName === 'surficial' ? `the surficial ${m}-group system` : `T_${m} of the ${systemName} coterie`,
    remedy: 'a smaller --n or --m',
  };
}

/**
 * Group mutual exclusion: validates the parameters and builds the group quorum system, factory,
 * spec (never two groups InCS together), request draw and the paper's bounds without contention
 * (Maekawa_M: 3c messages per entry, delay 2, Theorems 5–6; Maekawa_S: 2c + 1 messages, delay
 * c + 1, Theorem 9).
 *
 * Its `build` throws ConfigurationError for n < 1, m < 2 (surficial) or m < 1, an unknown variant
 * or system, a coterie that does not exist for n, a system whose estimated memory (n·m·c quorum
 * memberships) exceeds this process's heap, `l`/`k` given, an initial configuration with a
 * process InCS, a `fencing` that is not true/false, a negative `ttl`/`driftMargin`, a `reselect`
 * other than on/off, or `fencing`/`ttl`/`reselect` with variant S (and whatever `groupMutex`
 * refuses of them).
 */
export const groupMutexDescriptor: AlgorithmDescriptor = defineAlgorithm({
  name: 'group-mutex',
  title: 'group mutual exclusion, Maekawa_M / Maekawa_S over group quorum systems (Joung 2003, Sec. 4)',
  defaultN: DEFAULT_N,
  crashRecovery: true,
  params: params({
    m: param('number of groups (default 2)'),
    variant: param(`${VARIANT_NAMES.join(' (Maekawa_M) or ')} (Maekawa_S) (default M)`),
    system: param(`the group quorum system: ${SYSTEM_NAMES.join(', ')} (default surficial)`),
    l: param('group-mutex takes no l: processes of one group may all be InCS together'),
    k: param('group-mutex takes no k: processes of one group may all be InCS together'),
    init: param('initial configuration: none (the default: no group in session)'),
    fencing: param('fencing tokens (issue 28; variant M): true or false (default false; a ttl implies true)'),
    ttl: param(
      'time-bounded grants (variant M): a lock not renewed within ttl is reclaimed (ms on real members, time units simulated; default none)',
    ),
    driftMargin: param(
      'the holder deadline is the last confirmed renewal + ttl − driftMargin (default ttl/10)',
    ),
    reselect: param(
      "on (variant M): a waiting request whose quorum holds a suspected member retries on another quorum of its group's cartel avoiding the suspects (needs the failure detector: transport.suspectAfterMs); off (default)",
    ),
  }),
  build(values, n = DEFAULT_N, ctx) {
    parseInteger('n', n, 1);
    const m = parseInteger('m', values.m ?? DEFAULT_M, 1);
    if (values.l !== undefined || values.k !== undefined) {
      throw new ConfigurationError(
        'group-mutex takes no --l or --k: processes of one group may all be InCS together; give --m',
      );
    }
    const variant = parseChoice('variant', String(values.variant ?? 'M'), VARIANT_NAMES);
    const systemName = parseChoice('system', String(values.system ?? 'surficial'), SYSTEM_NAMES);
    const init = String(values.init ?? 'none');
    const initial = parseAllOutCS(init, n, 'group-mutex', 'no group in session');
    if (systemName === 'surficial' && m < 2) {
      throw new ConfigurationError(`--m must be at least 2 for the surficial system, got ${m}`);
    }
    ctx.weigh(groupEstimate(n, m, systemName));
    const system =
      systemName === 'surficial' ? surficialFor(n, m) : groupFromCoterie(coterieByName(systemName, n), m);
    const fence = parseGrantParams(values);
    const reselect = parseChoice('reselect', String(values.reselect ?? 'off'), ['on', 'off']) === 'on';
    const options = { system, variant } as const;
    const b = groupMutexBounds(options);
    const sizes = b.cMin === b.c ? `${b.c}` : `${b.cMin}–${b.c}`;
    return {
      n,
      l: 0,
      k: n,
      coterieName: null,
      coterieDescription: null,
      quorumSize: { min: b.cMin, max: b.c },
      mx: null,
      structure: `${system.description}, m = ${m}, quorums ${sizes}, degree ${b.degree}, Maekawa_${variant}`,
      options: {
        m,
        variant,
        system: systemName,
        ...grantParamValues(fence),
        ...(reselect ? { reselect: 'on' } : {}),
      },
      spec: groupSpec(m, n),
      sequentialSpec: null,
      factory: groupMutex({ ...options, ...fence, ...(reselect ? { reselect } : {}) }) as CSFactory<unknown>,
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
    };
  },
});
