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
  cubeSide,
  cubeZ,
  type HKArbiter,
  uniformHKArbiter,
  uniformKArbiter,
  uniformQuorumSize,
} from '@critsec/coteries';
import { asHKArbiter, hOutOfK, hOutOfKBounds } from '@critsec/h-out-of-k';
import { ALGORITHM_TITLES } from './catalog.js';
import { checkFootprint } from './footprint.js';
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

type ArbiterName = (typeof ARBITER_NAMES)[number];

/**
 * Bytes one (h,k)-arbiter membership costs over a simulation: peak RSS less the 115 MB of an
 * n = 25 run, `critsec simulate h-out-of-k --n 1000 --rounds 1` 387,156 KB for 1,853,000
 * memberships (147 B), `--n 2000` 849,776 KB for 7,406,000 (99 B) (2026-11-24): well below the
 * 400 B of a coterie's membership (footprint.ts).
 */
const BYTES_PER_ARBITER_MEMBERSHIP = 160;

/**
 * Quorum memberships of arbiter `name` over n processes, from the constructions' closed forms
 * (nothing is built): n · Σ_{h=1..k} (⌊k·n/(k+h)⌋ + 1) for the uniform (h,k)-arbiter (one cyclic
 * window per process and h, Sec. 3.2); n · (⌊k·n/(k+1)⌋ + 1) for the uniform k-arbiter (one set for
 * every h); for the cubes, (n + a^(k+1)) · Σ_h min(n, (k+2−z_h)·a^(k+1−z_h)) — the n assigned
 * quorums and the whole family of a^(k+1) tuple quorums each set is drawn from (Sec. 3.3), for
 * h = 1..k, or h = 1 alone for the cube k-arbiter.
 */
function arbiterMemberships(name: ArbiterName, n: number, k: number): number {
  const hs = name === 'uniform' || name === 'cube' ? k : 1;
  let perProcess = 0;
  if (name === 'uniform' || name === 'uniform-k') {
    for (let h = 1; h <= hs; h++) perProcess += uniformQuorumSize(n, k, h);
    return n * perProcess;
  }
  const a = cubeSide(n, k);
  for (let h = 1; h <= hs; h++) {
    const z = cubeZ(k, h);
    perProcess += Math.min(n, (k + 2 - z) * a ** (k + 1 - z));
  }
  return (n + a ** (k + 1)) * perProcess;
}

function buildArbiter(name: ArbiterName, n: number, k: number): HKArbiter {
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
 *   `random` nor an integer in 1..k, `--l` other than 0, an initial configuration with a
 *   process InCS, or an arbiter whose estimated memory (its quorum memberships, footprint.ts)
 *   exceeds this process's heap — before it is built.
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
  if (n >= 2 && k < n) {
    // (k = n and n = 1 are refused by the constructions at once)
    checkFootprint({
      n,
      memberships: arbiterMemberships(arbiterName, n, k),
      what: `the ${arbiterName} (h,k)-arbiter, k = ${k}`,
      remedy: 'a smaller --n or --k',
      bytesPerMembership: BYTES_PER_ARBITER_MEMBERSHIP,
    });
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
        'Manabe & Tajima, Sec. 4.3 (3·|q_{h,k}| per request without conflict, (3h+3)·|q_{h,k}| per request in the worst case as the paper counts, not per pair under causal attribution; entry 2, exit 0)',
      formula: '3|q_{h,k}|',
    },
    title: ALGORITHM_TITLES['h-out-of-k'],
  };
}
