/*
 * The descriptor of h-out-of-k mutual exclusion (the plug-in contract of @critsec/core,
 * descriptor.ts; `critsec simulate h-out-of-k --n N --k K --arbiter uniform|cube [--h H | --h
 * random]`): the algorithm of Manabe & Tajima (Sec. 4, Fig. 1) over a uniform or (k+1)-cube
 * (h,k)-arbiter of @critsec/coteries (Sec. 3.2–3.3). Every process starts OutCS (Fig. 1); each
 * entry takes `h` units, or a number drawn uniformly from 1..k per entry.
 */
import {
  type AlgorithmDescriptor,
  ConfigurationError,
  type CSFactory,
  defineAlgorithm,
  hOutOfKSpec,
  type RequestDraw,
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
  cubeHKArbiter,
  cubeKArbiter,
  cubeSide,
  cubeZ,
  type HKArbiter,
  uniformHKArbiter,
  uniformKArbiter,
  uniformQuorumSize,
} from '@critsec/coteries';
import { hOutOfKBounds } from './bounds.js';
import { asHKArbiter, hOutOfK } from './factory.js';

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
 * h-out-of-k mutual exclusion over an (h,k)-arbiter: validates the parameters and builds the
 * arbiter, factory, spec (Σ units held ≤ k), request draw and the paper's bounds (Sec. 4.3:
 * 3·|q_{h,k}| messages per request without conflict; entry 2, exit 0 time units).
 *
 * Its `build` throws ConfigurationError for n < 1, k ∉ 1..n, an unknown arbiter, h that is
 * neither `random` nor an integer in 1..k, `l` other than 0, an initial configuration with a
 * process InCS, `fencing` other than true / false, a negative `ttl` or `driftMargin` (and, from
 * the factory, a ttl of 0, `fencing: false` with a ttl, a margin outside [0, ttl)), or an arbiter
 * whose estimated memory (its quorum memberships) exceeds this process's heap — before it is
 * built. `fencing`, `ttl`, `driftMargin` (issue 28) are the factory's options: tokens and
 * time-bounded grants, in ms on real members and time units in the simulator; `reselect`
 * (`on` / `off`, default off; issue 28 §4) is quorum reselection (`reselect.ts`), and with `on` an
 * arbiter with a single quorum for some h is a ConfigurationError.
 */
export const hOutOfKDescriptor: AlgorithmDescriptor = defineAlgorithm({
  name: 'h-out-of-k',
  title: 'h-out-of-k mutual exclusion with (h,k)-arbiters (Manabe & Tajima, Sec. 4, Fig. 1)',
  defaultN: DEFAULT_N,
  crashRecovery: true,
  params: params({
    k: param('the units: at most k held at once (default 3, capped to n)'),
    l: param('h-out-of-k has no lower bound: l is 0 (or left out)'),
    arbiter: param(
      `the (h,k)-arbiter: ${ARBITER_NAMES.join(', ')} (default uniform; -k: a k-arbiter, the same quorum for every h)`,
    ),
    h: param('units per entry, 1..k, or random (default: uniform in 1..k per entry)'),
    init: param('initial configuration: none (the default: Fig. 1 starts every process OutCS)'),
    fencing: param('fencing tokens (issue 28): true or false (default false; a ttl implies true)'),
    ttl: param(
      'time-bounded grants: an OK not renewed within ttl is reclaimed (ms on real members, time units simulated; default none)',
    ),
    driftMargin: param(
      'the holder deadline is the last confirmed renewal + ttl − driftMargin (default ttl/10)',
    ),
    reselect: param(
      'on: a waiting request whose quorum holds a suspected member retries on another quorum of Q_{h,k} avoiding the suspects (needs the failure detector: transport.suspectAfterMs); off (default)',
    ),
  }),
  build(values, n = DEFAULT_N, ctx) {
    parseInteger('n', n, 1);
    const k = parseInteger('k', values.k ?? Math.min(DEFAULT_K, n), 1, n);
    if (values.l !== undefined && Number(values.l) !== 0) {
      throw new ConfigurationError(
        `h-out-of-k has no lower bound, so --l must be 0 (or left out), got ${values.l}`,
      );
    }
    const arbiterName = parseChoice('arbiter', String(values.arbiter ?? 'uniform'), ARBITER_NAMES);
    const reselect = parseChoice('reselect', String(values.reselect ?? 'off'), ['on', 'off']) === 'on';
    const hText = String(values.h ?? 'random').trim();
    const h = hText === 'random' ? null : parseInteger('h', hText, 1, k);
    const init = String(values.init ?? 'none');
    const initial = parseAllOutCS(init, n, 'h-out-of-k', 'Fig. 1: In = false, x = k');
    if (n >= 2 && k < n) {
      // (k = n and n = 1 are refused by the constructions at once)
      ctx.weigh({
        n,
        memberships: arbiterMemberships(arbiterName, n, k),
        what: `the ${arbiterName} (h,k)-arbiter, k = ${k}`,
        remedy: 'a smaller --n or --k',
        bytesPerMembership: BYTES_PER_ARBITER_MEMBERSHIP,
      });
    }
    const fence = parseGrantParams(values);
    const arbiter = buildArbiter(arbiterName, n, k);
    const rows = hOutOfKBounds(arbiter).filter((r) => h === null || r.h === h);
    const min = Math.min(...rows.map((r) => r.quorumSize.min));
    const max = Math.max(...rows.map((r) => r.quorumSize.max));
    const request: RequestDraw = h === null ? (rng) => 1 + rng.int(k) : () => h;
    return {
      n,
      l: 0,
      k,
      coterieName: null,
      coterieDescription: null,
      quorumSize: { min, max },
      mx: null,
      structure: `${arbiter.description}, |q_{h,k}| ${min === max ? max : `${min}–${max}`}${h === null ? ' over h = 1..k' : ` for h = ${h}`}`,
      options: {
        k,
        arbiter: arbiterName,
        h: h ?? 'random',
        ...grantParamValues(fence),
        ...(reselect ? { reselect: 'on' } : {}),
      },
      spec: hOutOfKSpec(k, n),
      sequentialSpec: null,
      factory: hOutOfK({ k, arbiter, reselect, ...fence }) as CSFactory<unknown>,
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
    };
  },
});
