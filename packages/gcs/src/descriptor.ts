/*
 * The descriptors of this package's algorithms (the plug-in contract of @critsec/core,
 * descriptor.ts): k-mutual exclusion as Co-MUTIN(n − k) (`kmutex`) and the (l,k)-GCS
 * (`gcs`).
 *
 * Bounds, Kamei & Kakugawa, "Asynchronous message-passing distributed algorithm for the global
 * critical section problem", IJNC 9(2), 2019 (unit delays, no contention):
 * - k-mutual exclusion = Co-MUTIN(n − k), Sec. 5 with Thm. 1 (the complementary theorem): MUTIN's
 *   messages (Lemma 3: mx + 6|Q|); entry is MUTIN's Exit() (≤ 7), exit is MUTIN's Entry() (≤ 2).
 * - (l,k)-GCS = compose(lmin, kmex), Sec. 5, Algorithm 3, Theorem 4 (with the proofs of Lemmas
 *   3–4): messages per pair = lmin's + kmex's; waiting time 9 for both exit (lmin.Exit() 7 +
 *   kmex.Exit() 2) and entry (kmex.Entry() 7 + lmin.Entry() 2).
 */
import {
  type AlgorithmDescriptor,
  ConfigurationError,
  type CSFactory,
  defineAlgorithm,
  param,
  params,
} from '@critsec/core';
import { grantParamValues, parseGivenLK, parseGrantParams } from '@critsec/core/kit';
import { COTERIE_PARAM, GLOBAL_INIT_PARAM } from '@critsec/mutex';
import { buildMutinComposite, fixedBound, MX_PARAM } from '@critsec/mutin';
import { gcs, kMutex } from './gcs.js';
import type { GcsTimeBounds } from './time-bounds.js';

const DEFAULT_N = 25;
const DEFAULT_L = 3;
const DEFAULT_K = 10;

/** The time-bound parameters (issue 28), as `GcsTimeBounds` and `critsec` flags. */
const TIME_BOUND_PARAMS = {
  ttl: param(
    'time-bounded grants of the inner Maekawas: a grant not renewed within ttl is reclaimed (ms on real members, time units simulated; default none)',
  ),
  driftMargin: param("the inner Maekawas' drift margin, same unit as ttl (default ttl/10)"),
  fencing: param('fencing tokens on the inner Maekawas: true or false (default false; a ttl implies true)'),
};

type Values = { readonly [k: string]: string | number | undefined };

/**
 * The time bounds of `values` and how they read back as the build's options.
 * @throws ConfigurationError for a bad value, or time bounds with an mx other than Maekawa.
 */
function timeBounds(values: Values): { bounds: GcsTimeBounds; options: Record<string, number | string> } {
  const bounds = parseGrantParams(values);
  const options = grantParamValues(bounds);
  if (Object.keys(options).length > 0 && String(values.mx ?? 'maekawa') !== 'maekawa')
    throw new ConfigurationError('ttl, driftMargin and fencing apply to mx = maekawa only');
  return { bounds, options };
}

/** `mx` when no time bound is set, else the bounds (the composite builds its Maekawas). */
function mxOrBounds(mx: CSFactory, t: ReturnType<typeof timeBounds>): { mx?: CSFactory } & GcsTimeBounds {
  return Object.keys(t.options).length === 0 ? { mx } : t.bounds;
}

/** k-mutual exclusion = Co-MUTIN(n − k) (`critsec simulate kmutex --k 3`). */
export const kMutexDescriptor: AlgorithmDescriptor = defineAlgorithm({
  name: 'kmutex',
  title: 'k-mutual exclusion = Co-MUTIN(n−k) (Kamei & Kakugawa 2019, Sec. 5, Thm. 1)',
  defaultN: DEFAULT_N,
  crashRecovery: true,
  params: params({
    l: param('kmutex solves the (0,k)-CS: l is 0 (or left out)'),
    k: param('at most k processes InCS (default 10, capped to n)'),
    coterie: param(COTERIE_PARAM),
    mx: param(MX_PARAM),
    init: param(GLOBAL_INIT_PARAM),
    ...TIME_BOUND_PARAMS,
  }),
  build(values, n = DEFAULT_N, ctx) {
    const given = parseGivenLK(values);
    const t = timeBounds(values);
    fixedBound('kmutex', 'k-mutual exclusion, the (0,k)-CS', 'l', given.l, 0);
    const l = 0;
    const k = given.k ?? Math.min(DEFAULT_K, n);
    return buildMutinComposite(values, n, l, k, ctx, {
      options: { k, ...t.options },
      factory: (coterie, mx) => kMutex({ k, coterie, ...mxOrBounds(mx, t) }),
      bounds: (messages, formula) => ({
        messagesPerPair: messages,
        waitingTimeEntry: 7,
        waitingTimeExit: 2,
        source: 'Kamei & Kakugawa 2019, Co-MUTIN(n−k) by Thm. 1 with Lemmas 3–4 (entry 7, exit 2)',
        formula,
      }),
    });
  },
});

/** The (l,k)-GCS = compose(MUTIN(l), Co-MUTIN(n − k)) (`critsec simulate gcs --l 3 --k 10`). */
export const gcsDescriptor: AlgorithmDescriptor = defineAlgorithm({
  name: 'gcs',
  title: '(l,k)-GCS = compose(MUTIN(l), Co-MUTIN(n−k)) (Kamei & Kakugawa 2019, Sec. 5, Algorithm 3)',
  defaultN: DEFAULT_N,
  crashRecovery: true,
  params: params({
    l: param('at least l processes InCS (default 3, capped below k)'),
    k: param('at most k processes InCS (default 10, capped to n)'),
    coterie: param(COTERIE_PARAM),
    mx: param(MX_PARAM),
    init: param(GLOBAL_INIT_PARAM),
    ...TIME_BOUND_PARAMS,
  }),
  build(values, n = DEFAULT_N, ctx) {
    const given = parseGivenLK(values);
    const t = timeBounds(values);
    const k = given.k ?? Math.min(DEFAULT_K, n);
    const l = given.l ?? Math.max(0, Math.min(DEFAULT_L, k - 1));
    return buildMutinComposite(values, n, l, k, ctx, {
      options: { l, k, ...t.options },
      factory: (coterie, mx) => gcs({ l, k, coterie, ...mxOrBounds(mx, t) }),
      bounds: (messages, formula) => ({
        messagesPerPair: 2 * messages,
        waitingTimeEntry: 9,
        waitingTimeExit: 9,
        source: 'Kamei & Kakugawa 2019, Sec. 5, Theorem 4 (lmin + kmex messages; waiting 9)',
        formula: `2·(${formula})`,
      }),
    });
  },
});
