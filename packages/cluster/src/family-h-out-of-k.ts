/*
 * h-out-of-k mutual exclusion for the CLI (`critsec simulate h-out-of-k --n N --k K --arbiter
 * uniform|cube [--h H | --h random]`): the algorithm of Manabe & Tajima (Sec. 4, Fig. 1) over a
 * uniform or (k+1)-cube (h,k)-arbiter of @critsec/coteries (Sec. 3.2–3.3). Every process starts
 * OutCS (Fig. 1); each entry takes `--h` units, or a number drawn uniformly from 1..k per entry.
 */
import { ConfigurationError, hOutOfKSpec } from '@critsec/core';
import {
  cubeHKArbiter,
  cubeKArbiter,
  type HKArbiter,
  uniformHKArbiter,
  uniformKArbiter,
} from '@critsec/coteries';
import { asHKArbiter, hOutOfK, hOutOfKBounds } from '@critsec/h-out-of-k';
import { ALGORITHM_TITLES } from './catalog.js';
import { describeInitial, parseChoice, parseInit, parseInteger } from './option-values.js';
import type { ClusterInput, RequestDraw, ResolvedCluster } from './resolved.js';

/**
 * The arbiters the CLI offers: the uniform and (k+1)-cube (h,k)-arbiters (Sec. 3.2–3.3), and for
 * comparison the uniform and cube k-arbiters used with the same quorum for every h
 * (`uniform-k`, `cube-k`: the algorithm for a k-arbiter that Sec. 3.1 generalizes).
 */
export const ARBITER_NAMES = ['uniform', 'cube', 'uniform-k', 'cube-k'] as const;

const DEFAULT_N = 25;
const DEFAULT_K = 3;

function buildArbiter(name: (typeof ARBITER_NAMES)[number], n: number, k: number): HKArbiter {
  switch (name) {
    case 'uniform':
      return uniformHKArbiter(n, k);
    case 'cube':
      return cubeHKArbiter(n, k);
    case 'uniform-k':
      return asHKArbiter(uniformKArbiter(n, k));
    case 'cube-k':
      return asHKArbiter(cubeKArbiter(n, k));
  }
}

/**
 * Validates `h-out-of-k`'s options and builds its arbiter, factory, spec (Σ units held ≤ k),
 * request draw and the paper's bounds (Sec. 4.3: 3·|q_{h,k}| messages per request without
 * conflict; entry 2, exit 0 time units).
 *
 * @throws ConfigurationError for n < 1, k ∉ 1..n, an unknown arbiter, h that is neither
 *   `random` nor an integer in 1..k, `--l` other than 0, or an initial configuration with a
 *   process InCS.
 */
export function resolveHOutOfK(input: ClusterInput): ResolvedCluster {
  const n = parseInteger('n', input.n ?? DEFAULT_N, 1);
  const k = parseInteger('k', input.k ?? Math.min(DEFAULT_K, n), 1, n);
  if (input.l !== undefined && Number(input.l) !== 0) {
    throw new ConfigurationError(
      `h-out-of-k has no lower bound, so --l must be 0 (or left out), got ${input.l}`,
    );
  }
  const arbiterName = parseChoice('arbiter', input.arbiter ?? 'uniform', ARBITER_NAMES);
  const hText = String(input.h ?? 'random').trim();
  const h = hText === 'random' ? null : parseInteger('h', hText, 1, k);
  const init = input.init ?? 'none';
  const initial = parseInit(init === 'default' ? 'none' : init, n, 0);
  const inCS = initial.flatMap((s, i) => (s === 'InCS' ? [i] : []));
  if (inCS.length > 0) {
    throw new ConfigurationError(
      `--init ${init}: h-out-of-k starts every process OutCS (Fig. 1: In = false, x = k); leave --init out or give none`,
    );
  }
  const arbiter = buildArbiter(arbiterName, n, k);
  const rows = hOutOfKBounds(arbiter).filter((r) => h === null || r.h === h);
  const min = Math.min(...rows.map((r) => r.quorumSize.min));
  const max = Math.max(...rows.map((r) => r.quorumSize.max));
  const request: RequestDraw = h === null ? (rng) => 1 + rng.int(k) : () => h;
  return {
    algorithm: 'h-out-of-k',
    n,
    l: 0,
    k,
    coterieName: null,
    coterie: null,
    quorumSize: { min, max },
    mx: null,
    structure: `${arbiter.description}, |q_{h,k}| ${min === max ? max : `${min}–${max}`}${h === null ? ' over h = 1..k' : ` for h = ${h}`}`,
    options: { k, arbiter: arbiterName, h: h ?? 'random' },
    spec: hOutOfKSpec(k, n),
    sequentialSpec: null,
    factory: hOutOfK({ k, arbiter }) as ResolvedCluster['factory'],
    request,
    requestDescription: h === null ? `h uniform in 1..${k} per entry` : `h = ${h} per entry`,
    initial,
    initialDescription: describeInitial(initial),
    init: 'none',
    bounds: {
      messagesPerPair: Math.max(...rows.map((r) => r.messagesUncontended)),
      waitingTimeEntry: Math.max(...rows.map((r) => r.waitingEntry)),
      waitingTimeExit: Math.max(...rows.map((r) => r.waitingExit)),
      source:
        'Manabe & Tajima, Sec. 4.3 (3·|q_{h,k}| per request without conflict, (3h+3)·|q_{h,k}| in the worst case; entry 2, exit 0)',
      formula: '3|q_{h,k}|',
    },
    title: ALGORITHM_TITLES['h-out-of-k'],
  };
}
