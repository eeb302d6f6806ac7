/*
 * The MUTIN(l) factory — Kamei & Kakugawa, IJNC 9(2), 2019, Section 4 (Algorithms 1–2): settings,
 * validation before any message (DESIGN.md 3.4), and the per-coterie constants Q_i and R_i.
 */
import {
  ConfigurationError,
  CoterieError,
  type CSFactory,
  initialConfiguration,
  type CSObject,
  type ProcessContext,
  type ProcessId,
} from '@critsec/core';
import { countInCS } from '@critsec/core/kit';
import { type Coterie, checkCoterie, isCoterie } from '@critsec/coteries';
import { maekawa } from '@critsec/mutex';
import { MutinCS } from './mutin.js';
import { parseMutinDurable } from './mutin-durable.js';
import type { MutinQuorums, Response2Rule } from './settings.js';

/** Settings of {@link mutin}. */
export interface MutinOptions {
  /** l: at least l processes are InCS at any time; `0 ≤ l < n`. */
  readonly l: number;
  /** The coterie: P_i uses `Q_i = coterie.quorumOf(i)`; `R_i = { j : i ∈ Q_j }`. Over the same n. */
  readonly coterie: Coterie;
  /**
   * The mutual exclusion that serializes exits (the paper's `mx`): **any** plain mutual
   * exclusion `CSFactory`, instantiated on the channel `mx` with every process OutCS of it.
   * Default `maekawa({ coterie })` from `@critsec/mutex`.
   */
  readonly mx?: CSFactory;
  /**
   * When a quorum member answers a waiting leaver again: `'per-release'` (default, live) or the
   * paper's literal `'once'`, which can deadlock — see {@link Response2Rule} and the README.
   */
  readonly response2?: Response2Rule;
  /**
   * Set when `mx` reclaims grants (e.g. `maekawa({ coterie, ttl })`; issue 28, a deviation from
   * the paper): an Exit() then **commits only while mx's tenure holds** when its last Ack
   * arrives — `mx.tenure()` of `@critsec/core`'s `TenuredCSObject` with `remaining() > 0` — and is
   * otherwise **undone** (a Release takes its Acquire back, `mx` is given back, the process stays
   * InCS, the call rejects with `TenureExpiredError`); the wait for Acks becomes abortable the same
   * way (`AbortError`), and a crash during it is undone on recovery. Without it, a time-bounded
   * `mx` could let two leavers count at once and break "at least l". Default false (the paper).
   */
  readonly mxTenure?: boolean;
}

/** A MUTIN(l) process: a plain CS object with the paper's variables readable (see `MutinCS`). */
export type Mutin = MutinCS;

interface Tables {
  readonly n: number;
  readonly byProcess: readonly MutinQuorums[];
}

/** Validated quorum tables per coterie object (a coterie is immutable). */
const tablesCache = new WeakMap<object, Tables | CoterieError>();

function describeQuorum(q: readonly ProcessId[]): string {
  return q.length > 12 ? `{${q.slice(0, 12).join(', ')}, …}` : `{${q.join(', ')}}`;
}

/**
 * Checks the coterie once (Def. 3: non-empty, pairwise intersecting, minimal quorums; ids in
 * 0..n−1) and computes Q_i and R_i for every process. R_i is computed from the assignment and
 * must match `coterie.reportersOf(i)`.
 */
function quorumTables(coterie: Coterie): Tables {
  const cached = tablesCache.get(coterie);
  if (cached instanceof CoterieError) throw cached;
  if (cached !== undefined) return cached;
  const result = ((): Tables | CoterieError => {
    const n = coterie.n;
    const assignment: (readonly ProcessId[])[] = [];
    for (let i = 0; i < n; i++) assignment.push(coterie.quorumOf(i));
    const check = checkCoterie({ n, quorums: assignment });
    if (!check.ok) return new CoterieError(`mutin: the coterie is not valid: ${check.message}`);
    const R: ProcessId[][] = Array.from({ length: n }, () => []);
    for (let k = 0; k < n; k++) for (const i of assignment[k]!) R[i]!.push(k);
    const byProcess: MutinQuorums[] = [];
    for (let i = 0; i < n; i++) {
      const given = coterie.reportersOf(i);
      const mine = R[i]!;
      if (given.length !== mine.length || given.some((p, t) => p !== mine[t])) {
        return new CoterieError(
          `mutin: coterie.reportersOf(${i}) = ${describeQuorum(given)} but the processes whose quorum ` +
            `contains P${i} are R_${i} = ${describeQuorum(mine)}`,
        );
      }
      byProcess.push(Object.freeze({ Q: Object.freeze([...assignment[i]!]), R: Object.freeze(mine) }));
    }
    return { n, byProcess };
  })();
  tablesCache.set(coterie, result);
  if (result instanceof CoterieError) throw result;
  return result;
}

/**
 * Validates MUTIN(l)'s settings against a process context, before any message is sent.
 * @throws ConfigurationError unless `0 ≤ l < n`, the coterie is over the same `n`, and the
 *   initial configuration has at least `l` processes InCS.
 * @throws CoterieError if the coterie breaks Def. 3 (names the offending quorums).
 */
export function validateMutin(l: number, coterie: Coterie, ctx: ProcessContext): MutinQuorums {
  const n = ctx.n;
  if (!Number.isSafeInteger(l) || l < 0 || l >= n) {
    throw new ConfigurationError(
      `mutin: l must be an integer with 0 ≤ l < n = ${n} (MUTIN(l) needs a process that can leave), got l = ${String(l)}`,
    );
  }
  if (coterie.n !== n) {
    throw new ConfigurationError(
      `mutin: the coterie is over n = ${coterie.n} processes but the cluster has n = ${n}; build it for ${n}`,
    );
  }
  const tables = quorumTables(coterie);
  if (ctx.initial.length !== n) {
    throw new ConfigurationError(
      `mutin: the initial configuration has ${ctx.initial.length} states, expected n = ${n}`,
    );
  }
  try {
    initialConfiguration(n, ctx.initial); // n states, each 'InCS' or 'OutCS' (issue 15)
  } catch (err) {
    throw err instanceof ConfigurationError ? new ConfigurationError(`mutin: ${err.message}`) : err;
  }
  const inCS = countInCS(ctx.initial);
  if (inCS < l) {
    const who = ctx.initial.flatMap((s, i) => (s === 'InCS' ? [`P${i}`] : []));
    throw new ConfigurationError(
      `mutin: the initial configuration is unsafe for MUTIN(${l}): ${inCS} process(es) InCS` +
        `${who.length > 0 ? ` (${who.slice(0, 8).join(', ')}${who.length > 8 ? ', …' : ''})` : ''}, ` +
        `expected at least l = ${l}`,
    );
  }
  return tables.byProcess[ctx.id]!;
}

/**
 * MUTIN(l): l-mutual inclusion over an ordinary coterie (global-CS paper, Sec. 4, Algorithms
 * 1–2) — at least `l` processes are InCS at any time (the global (l, n)-CS problem).
 *
 * Each process's objects: MUTIN messages on the endpoint it is given, `mx` on its channel `mx`.
 *
 * Costs (Lemmas 3–4): per exit+entry pair `mx`'s messages + 4|Q_i| (Query, Response1, Acquire,
 * Ack) + |Q_i| (Release) + at most |Q_i| (Response2); waiting time (time units, one per message)
 * at most 7 for Exit() (3 of them `mx`'s) and 2 for Entry(). Entry() never blocks.
 *
 * Abort: an Exit() can be withdrawn while it waits for `mx` or for l+1 processes InCS; once its
 * Acquire messages are sent it completes (with `mxTenure` it is undone instead: see
 * {@link MutinOptions.mxTenure}). Entry() completes at once.
 *
 * **Crash recovery** (issue 27): when `mx` is durable (Maekawa and Ricart–Agrawala are), the
 * objects are `DurableCSObject`s of `@critsec/core`: `durableState()` returns every protocol
 * variable as JSON (`MutinDurableState`, `mx`'s state nested); given it as `ctx.recovered`,
 * the factory builds the object exactly there, and `recover()` ends the Exit() the crash cut —
 * withdrawn while it waited for `mx` or for l+1 processes InCS (the process stays InCS),
 * completed once its Acquires were out (OutCS). It never begins a call: a process InCS or OutCS
 * stays so, and the restarted application makes the next call (the paper's model, Sec. 3, has
 * every process eventually invoke the next one). Over an `mx` that is not durable the objects
 * have no `durableState`/`recover` (not durable), and a recovered state is refused.
 *
 * @param options `{ l, coterie, mx? }` — see {@link MutinOptions}.
 * @returns a factory; calling it validates the context and may throw (see below).
 * @throws ConfigurationError (from the factory, before any message) unless `0 ≤ l < n`, the
 *   coterie is over the same n, the initial configuration has at least l processes InCS and
 *   `mx` is a plain mutual exclusion factory; here already if `l` is not a non-negative integer,
 *   `coterie` is not a coterie, or `mx` is not a function.
 * @throws ConfigurationError (from the factory) if `ctx.recovered` is not a state of this process
 *   under this l and coterie (malformed, another algorithm's, process's or cluster's, one the
 *   algorithm cannot reach, or `mx`'s part refused by `mx`), or `mx` is not durable.
 * @throws CoterieError (from the factory) if the coterie's quorums do not intersect pairwise or
 *   are not minimal.
 *
 * @example
 * ```ts
 * const factory = mutin({ l: 2, coterie: grid(9) });       // mx defaults to maekawa
 * const cs = factory({ id, n: 9, endpoint, initial });     // ≥ 2 of `initial` InCS
 * await cs.exit();                                         // blocks while only 2 are InCS
 * ```
 */
export function mutin(options: MutinOptions): CSFactory {
  const { l, coterie } = options ?? ({} as MutinOptions);
  if (!Number.isSafeInteger(l) || l < 0) {
    throw new ConfigurationError(`mutin: l must be an integer ≥ 0 (and < n), got ${String(l)}`);
  }
  if (!isCoterie(coterie)) {
    throw new ConfigurationError(
      'mutin: coterie must be a Coterie (n, quorumOf(i), reportersOf(i)), e.g. grid(n) from @critsec/coteries',
    );
  }
  if (options.mx !== undefined && typeof options.mx !== 'function') {
    throw new ConfigurationError(`mutin: mx must be a mutual exclusion CSFactory, got ${typeof options.mx}`);
  }
  const response2 = options.response2 ?? 'per-release';
  if (response2 !== 'per-release' && response2 !== 'once') {
    throw new ConfigurationError(
      `mutin: response2 must be 'per-release' or 'once', got ${String(response2)}`,
    );
  }
  const mx = options.mx ?? maekawa({ coterie });
  const mxTenure = options.mxTenure === true;
  return (ctx: ProcessContext): CSObject => {
    const quorums = validateMutin(l, coterie, ctx);
    // issue 27: a restarted process resumes from its recovered state, checked first
    const restored =
      ctx.recovered === undefined ? undefined : parseMutinDurable(ctx.recovered, ctx, l, quorums);
    return new MutinCS(ctx, { l, quorums, mx, response2, mxTenure }, restored);
  };
}
