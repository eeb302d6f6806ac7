/*
 * The descriptors of this package's algorithms (the plug-in contract of @critsec/core,
 * descriptor.ts): Maekawa's mutual exclusion over a coterie (`mutex`) and Ricart–Agrawala
 * (`ricart-agrawala`), with their bounds, and the choice of mutual exclusion a composite runs on
 * (`mx` of MUTIN, k-mutex and the GCS).
 *
 * Bounds (unit delays, no contention):
 * - Maekawa, "A √N algorithm for mutual exclusion in decentralized systems", ACM TOCS 3(2), 1985
 *   (deadlock handling after Sanders, ACM TOCS 5(3), 1987): 3·|Q| messages per CS (REQUEST,
 *   LOCKED, RELEASE to/from each arbiter of Q_i, self included); entry waits 2 time units
 *   (REQUEST, LOCKED); exit 0 here: RELEASE is fire and forget (Lemma 4 of the global-CS paper
 *   counts Maekawa's exit as 1 time unit; 0 ≤ 1). With contention FAILED / INQUIRE / RELINQUISH
 *   and re-LOCKED messages come on top.
 * - Ricart & Agrawala, "An optimal algorithm for mutual exclusion in computer networks", CACM
 *   24(1), 1981: 2(n − 1) messages per CS (REQUEST and REPLY to/from every other process); entry
 *   waits 2 (REQUEST, REPLY), exit 0 (deferred REPLYs are sent without waiting).
 */
import {
  type AlgorithmDescriptor,
  type BuildContext,
  type CSFactory,
  defineAlgorithm,
  globalSpec,
  type PaperBounds,
  param,
  params,
} from '@critsec/core';
import {
  grantParamValues,
  parseChoice,
  parseGlobalInitial,
  parseGrantParams,
  parseInteger,
} from '@critsec/core/kit';
import { COTERIE_NAMES, type Coterie, coterieByName, quorumSizes } from '@critsec/coteries';
import { maekawa } from './maekawa.js';
import { ricartAgrawala } from './ricart-agrawala.js';

/** The n a global-family run takes when none is given. */
const DEFAULT_N = 25;

/** The mutual exclusions a composite (MUTIN, k-mutex, the GCS) can run on, as `mx`. */
export const MX_NAMES = ['maekawa', 'ricart-agrawala'] as const;

/** A mutual exclusion of {@link MX_NAMES}. */
export type MxName = (typeof MX_NAMES)[number];

/** The `coterie` parameter's description, shared by every descriptor over a coterie. */
export const COTERIE_PARAM = `the coterie: ${COTERIE_NAMES.join(', ')} (default grid)`;

/** The `init` parameter's description for the global (l,k)-CS. */
export const GLOBAL_INIT_PARAM =
  'initial configuration: default (the first l InCS), none, all, first:M, or the ids InCS like 0,3,7';

/**
 * Parses `coterie` (default `grid`) and builds it over n processes, weighed first.
 * @throws ConfigurationError for an unknown construction, a size it does not exist for, or a
 *   structure that does not fit the heap.
 */
export function coterieParam(value: string | number | undefined, n: number, ctx: BuildContext): Coterie {
  const name = parseChoice('coterie', String(value ?? 'grid'), COTERIE_NAMES);
  return coterieByName(name, n, (e) => ctx.weigh(e));
}

/** Smallest and largest quorum size of a structure. */
export interface QuorumSizeRange {
  /** Smallest quorum size. */
  readonly min: number;
  /** Largest quorum size. */
  readonly max: number;
}

/** The quorum sizes of a built coterie, as `BuiltAlgorithm.quorumSize`. */
export function quorumSizeOf(coterie: Coterie): QuorumSizeRange {
  const s = quorumSizes(coterie);
  return { min: s.min, max: s.max };
}

/** A factory and its messages per exit+entry pair without contention. */
export interface MessageCost {
  /** The factory. */
  readonly factory: CSFactory;
  /** Messages per exit+entry pair without contention (an upper bound). */
  readonly messages: number;
  /** The same as a formula, e.g. `3|Q|`. */
  readonly formula: string;
}

/**
 * The mutual exclusion `mx` over `coterie` (Ricart–Agrawala takes none) and its messages per CS
 * without contention: 3·|Q|max for Maekawa, 2(n − 1) for Ricart–Agrawala.
 */
export function mxByName(mx: MxName, coterie: Coterie): MessageCost {
  return mx === 'maekawa'
    ? { factory: maekawa({ coterie }), messages: 3 * quorumSizes(coterie).max, formula: '3|Q|' }
    : { factory: ricartAgrawala(), messages: 2 * (coterie.n - 1), formula: '2(n−1)' };
}

/** Maekawa's bounds with quorums of at most `q` processes (see the module comment). */
function maekawaBounds(q: number): PaperBounds {
  return {
    messagesPerPair: 3 * q,
    waitingTimeEntry: 2,
    waitingTimeExit: 0,
    source: 'Maekawa 1985 (3·|Q| per CS; entry 2, exit 0 with fire-and-forget RELEASE)',
    formula: '3|Q|',
  };
}

/** The `reselect` parameter's description (issue 28 §4). */
const RESELECT_PARAM =
  'on: a waiting request whose quorum holds a suspected member retries on another quorum of the coterie avoiding the suspects (needs the failure detector: transport.suspectAfterMs); off (default)';

/** Maekawa's mutual exclusion over a coterie (`critsec simulate mutex --coterie grid`). */
export const maekawaDescriptor: AlgorithmDescriptor = defineAlgorithm({
  name: 'mutex',
  title: "Maekawa's quorum mutual exclusion (Maekawa 1985, Sanders 1987)",
  defaultN: DEFAULT_N,
  crashRecovery: true,
  params: params({
    coterie: param(COTERIE_PARAM),
    init: param(GLOBAL_INIT_PARAM),
    fencing: param('fencing tokens (issue 28): true or false (default false; a ttl implies true)'),
    ttl: param(
      'time-bounded grants: a grant not renewed within ttl is reclaimed (ms on real members, time units simulated; default none)',
    ),
    driftMargin: param(
      'the holder deadline is the last confirmed renewal + ttl − driftMargin (default ttl/10)',
    ),
    reselect: param(RESELECT_PARAM),
  }),
  build(values, n = DEFAULT_N, ctx) {
    const coterie = coterieParam(values.coterie, n, ctx);
    const reselect = parseChoice('reselect', String(values.reselect ?? 'off'), ['on', 'off']) === 'on';
    const init = String(values.init ?? 'default');
    const quorumSize = quorumSizeOf(coterie);
    const fence = parseGrantParams(values);
    return {
      n,
      l: 0,
      k: 1,
      coterieName: coterie.kind,
      coterieDescription: coterie.description,
      quorumSize,
      mx: null,
      structure: null,
      options: {
        coterie: coterie.kind,
        ...grantParamValues(fence),
        ...(reselect ? { reselect: 'on' } : {}),
      },
      spec: globalSpec(0, 1, n),
      sequentialSpec: null,
      factory: maekawa({ coterie, reselect, ...fence }) as CSFactory<unknown>,
      request: null,
      requestDescription: null,
      ...parseGlobalInitial(init, n, 0, 1),
      init,
      bounds: maekawaBounds(quorumSize.max),
    };
  },
});

/** Ricart–Agrawala, the O(n) baseline (`critsec simulate ricart-agrawala`). */
export const ricartAgrawalaDescriptor: AlgorithmDescriptor = defineAlgorithm({
  name: 'ricart-agrawala',
  title: 'Ricart–Agrawala mutual exclusion, the O(n) baseline (CACM 1981)',
  defaultN: DEFAULT_N,
  crashRecovery: true,
  params: params({ init: param(GLOBAL_INIT_PARAM) }),
  build(values, n = DEFAULT_N, ctx) {
    parseInteger('n', n, 1);
    ctx.weigh({ n, memberships: n * n, what: 'Ricart–Agrawala (every process talks to every other)' });
    const init = String(values.init ?? 'default');
    return {
      n,
      l: 0,
      k: 1,
      coterieName: null,
      coterieDescription: null,
      quorumSize: null,
      mx: null,
      structure: null,
      options: {},
      spec: globalSpec(0, 1, n),
      sequentialSpec: null,
      factory: ricartAgrawala() as CSFactory<unknown>,
      request: null,
      requestDescription: null,
      ...parseGlobalInitial(init, n, 0, 1),
      init,
      bounds: {
        messagesPerPair: 2 * (n - 1),
        waitingTimeEntry: n > 1 ? 2 : 0,
        waitingTimeExit: 0,
        source: 'Ricart & Agrawala 1981 (2(n−1) per CS; entry 2, exit 0)',
        formula: '2(n−1)',
      },
    };
  },
});
