/*
 * The descriptor of MUTIN(l), l-mutual inclusion (the plug-in contract of @critsec/core,
 * descriptor.ts), and the bound every composite of MUTIN shares.
 *
 * Kamei & Kakugawa, "Asynchronous message-passing distributed algorithm for the global critical
 * section problem", IJNC 9(2), 2019, Sec. 4, Lemma 3: per exit+entry pair, mx's messages + |Q_i|
 * Query + |Q_i| Response1 + |Q_i| Acquire + |Q_i| Ack (Exit) + |Q_i| Release + at most |Q_i|
 * Response2 (Entry) = mx + 6|Q_i|. Lemma 4: waiting time 7 for Exit() (3 of them mx's: 2 + 1) and
 * 2 for Entry() (unit delays, no contention).
 */
import {
  type AlgorithmDescriptor,
  type BuildContext,
  type BuiltAlgorithm,
  ConfigurationError,
  type CSFactory,
  defineAlgorithm,
  globalSpec,
  param,
  type PaperBounds,
  type ParamValue,
  params,
} from '@critsec/core';
import { checkGlobalLK, parseChoice, parseGivenLK, parseGlobalInitial } from '@critsec/core/kit';
import type { Coterie } from '@critsec/coteries';
import {
  COTERIE_PARAM,
  coterieParam,
  GLOBAL_INIT_PARAM,
  type MessageCost,
  MX_NAMES,
  type MxName,
  mxByName,
  quorumSizeOf,
} from '@critsec/mutex';
import { mutin } from './factory.js';

const DEFAULT_N = 25;
const DEFAULT_L = 3;

/** The `mx` parameter's description, shared by MUTIN's composites. */
export const MX_PARAM = `the mutual exclusion MUTIN runs on: ${MX_NAMES.join(', ')} (default maekawa)`;

/**
 * Refuses a value of l or k that the problem fixes: `what` names the problem
 * (`l-mutual inclusion, the (l,n)-CS`).
 * @throws ConfigurationError `<algorithm> solves <what>, so --<name> must be <must>`.
 */
export function fixedBound(
  algorithm: string,
  what: string,
  name: 'l' | 'k',
  value: number | undefined,
  must: number,
): void {
  if (value !== undefined && value !== must) {
    throw new ConfigurationError(
      `${algorithm} solves ${what}, so --${name} must be ${must} (or left out), got ${value}`,
    );
  }
}

/** MUTIN's messages per pair over `coterie` with `mx` (Lemma 3): mx + 6|Q|. */
export function mutinCost(mx: MxName, coterie: Coterie): MessageCost {
  const inner = mxByName(mx, coterie);
  const q = quorumSizeOf(coterie).max;
  return { factory: inner.factory, messages: inner.messages + 6 * q, formula: `${inner.formula} + 6|Q|` };
}

/** Parses `mx` (default `maekawa`). @throws ConfigurationError for an unknown name. */
export function mxParam(value: string | number | undefined): MxName {
  return parseChoice('mx', String(value ?? 'maekawa'), MX_NAMES);
}

/** What differs between MUTIN and its composites (k-mutex, the GCS) once l, k and n are known. */
export interface MutinCompositeBuild {
  /** The parameters that reproduce the build beside the coterie and a non-default `mx`. */
  readonly options: Readonly<Record<string, number | string>>;
  /** The factory over the built coterie and `mx`'s factory. */
  factory(coterie: Coterie, mx: CSFactory): CSFactory;
  /** The bounds, from MUTIN's messages per pair (Lemma 3) and their formula. */
  bounds(mutinMessages: number, formula: string): PaperBounds;
}

/**
 * Builds MUTIN or one of its composites for the (l,k)-CS over n processes: the coterie (weighed
 * first), `mx`, the initial configuration (refused when unsafe), the spec and the bounds.
 * @throws ConfigurationError for l ≥ k, k > n, an unknown coterie or mx, an unsafe `init`.
 */
export function buildMutinComposite(
  values: { readonly coterie?: ParamValue; readonly mx?: ParamValue; readonly init?: ParamValue },
  n: number,
  l: number,
  k: number,
  ctx: BuildContext,
  how: MutinCompositeBuild,
): BuiltAlgorithm {
  checkGlobalLK(l, k, n);
  const coterie = coterieParam(values.coterie, n, ctx);
  const mx = mxParam(values.mx);
  const init = String(values.init ?? 'default');
  const initial = parseGlobalInitial(init, n, l, k);
  const m = mutinCost(mx, coterie);
  return {
    n,
    l,
    k,
    coterieName: coterie.kind,
    coterieDescription: coterie.description,
    quorumSize: quorumSizeOf(coterie),
    mx,
    structure: null,
    options: { ...how.options, coterie: coterie.kind, ...(mx === 'maekawa' ? {} : { mx }) },
    spec: globalSpec(l, k, n),
    sequentialSpec: null,
    factory: how.factory(coterie, m.factory) as CSFactory<unknown>,
    request: null,
    requestDescription: null,
    ...initial,
    init,
    bounds: how.bounds(m.messages, m.formula),
  };
}

/** MUTIN(l), l-mutual inclusion over a coterie (`critsec simulate mutin --l 3 --coterie grid`). */
export const mutinDescriptor: AlgorithmDescriptor = defineAlgorithm({
  name: 'mutin',
  title: 'MUTIN(l), l-mutual inclusion (Kamei & Kakugawa 2019, Sec. 4, Algorithms 1–2)',
  defaultN: DEFAULT_N,
  crashRecovery: true,
  params: params({
    l: param('at least l processes InCS (default 3, capped to fit n)'),
    k: param('mutin solves the (l,n)-CS: k is n (or left out)'),
    coterie: param(COTERIE_PARAM),
    mx: param(MX_PARAM),
    init: param(GLOBAL_INIT_PARAM),
  }),
  build(values, n = DEFAULT_N, ctx) {
    const given = parseGivenLK(values);
    fixedBound('mutin', 'l-mutual inclusion, the (l,n)-CS', 'k', given.k, n);
    const k = n;
    const l = given.l ?? Math.min(DEFAULT_L, n - 1);
    return buildMutinComposite(values, n, l, k, ctx, {
      options: { l },
      factory: (coterie, mx) => mutin({ l, coterie, mx }),
      bounds: (messages, formula) => ({
        messagesPerPair: messages,
        waitingTimeEntry: 2,
        waitingTimeExit: 7,
        source: 'Kamei & Kakugawa 2019, Sec. 4, Lemma 3 (mx + 6|Q|) and Lemma 4 (exit 7, entry 2)',
        formula,
      }),
    });
  },
});
