/*
 * The durable state of compose(a, b) (issue 27, crash recovery; the contract is `DurableCSObject`
 * of `@critsec/core`): Algorithm 3's own variables — the composite's state and where its call
 * is (Kamei & Kakugawa, IJNC 9(2), 2019, Sec. 5) — with the two inner objects' states nested
 * (each checked by its own factory), and how a recovered one is checked.
 */
import { ConfigurationError, type CSState, type JsonValue, type ProcessId } from '@critsec/core';

/** The format tag of {@link ComposeDurableState} (a state of another algorithm or version is refused). */
export const COMPOSE_DURABLE_FORMAT = 'critsec/compose@1';

/**
 * Where a composite's call is: `'idle'`, or the inner call it awaits — `a.Exit` then `b.Exit`
 * (Exit()), `b.Entry` then `a.Entry` (Entry()).
 */
export type ComposePhase = 'idle' | 'a.Exit' | 'b.Exit' | 'b.Entry' | 'a.Entry';

/**
 * The durable state of one process of compose(a, b): plain JSON. What `durableState()` of a
 * composite returns and what `compose`'s factory resumes from when given it as `ctx.recovered`.
 */
export type ComposeDurableState = {
  /** Always {@link COMPOSE_DURABLE_FORMAT}. */
  format: typeof COMPOSE_DURABLE_FORMAT;
  /** The process this state belongs to. */
  id: ProcessId;
  /** The composite's state (`state_i` of Algorithm 3). */
  state: CSState;
  /** Where its call was. */
  phase: ComposePhase;
  /** The durable state of `a` (its own format). */
  a: JsonValue;
  /** The durable state of `b` (its own format). */
  b: JsonValue;
};

const PHASES: readonly ComposePhase[] = ['idle', 'a.Exit', 'b.Exit', 'b.Entry', 'a.Entry'];
const KEYS = ['format', 'id', 'state', 'phase', 'a', 'b'];

/** The first reason `x` is not shaped as a {@link ComposeDurableState}, or null (`a`, `b` are their factories' to check). */
function shapeError(x: unknown): string | null {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return 'not an object';
  const r = x as Record<string, unknown>;
  const extra = Object.keys(r).find((k) => !KEYS.includes(k));
  if (extra !== undefined) return `unknown field ${extra}`;
  if (r.format !== COMPOSE_DURABLE_FORMAT) return `format is ${JSON.stringify(r.format)}`;
  if (typeof r.id !== 'number' || !Number.isSafeInteger(r.id) || r.id < 0) return 'id is not a process id';
  if (r.state !== 'InCS' && r.state !== 'OutCS') return `state is ${JSON.stringify(r.state)}`;
  if (!PHASES.includes(r.phase as ComposePhase)) return `phase is ${JSON.stringify(r.phase)}`;
  const missing = (['a', 'b'] as const).find((k) => r[k] === undefined);
  return missing === undefined ? null : `the state of ${missing} is missing`;
}

function refuse(id: ProcessId, why: string): never {
  throw new ConfigurationError(
    `compose: P${id} cannot resume from its recovered state: ${why}. Give it the state its own store committed last (same cluster, algorithm and process); if that state is lost, the process must not rejoin as new (see "Crash recovery" in the @critsec/gcs README)`,
  );
}

/**
 * Checks the composite's part of a recovered state (`ctx.recovered`) before the inner objects
 * are built from theirs.
 * @throws ConfigurationError when it is malformed, of another algorithm, version or process.
 */
export function parseComposeDurable(recovered: unknown, id: ProcessId): ComposeDurableState {
  const bad = shapeError(recovered);
  if (bad !== null) refuse(id, `not a ${COMPOSE_DURABLE_FORMAT} state (${bad})`);
  const s = recovered as ComposeDurableState;
  if (s.id !== id) refuse(id, `it is P${s.id}'s`);
  return s;
}

const rank = (s: CSState): number => (s === 'InCS' ? 1 : 0);

/**
 * Checks the recovered inner objects against the composite's state and phase: Lemma 8's
 * `#A_i ≤ #G_i ≤ #B_i` (a InCS ⇒ composite InCS ⇒ b InCS), and all three equal when no call runs.
 * @throws ConfigurationError naming the disagreement.
 */
export function checkInnerStates(s: ComposeDurableState, a: CSState, b: CSState): void {
  const ok =
    rank(a) <= rank(s.state) &&
    rank(s.state) <= rank(b) &&
    (s.phase !== 'idle' || (a === s.state && b === s.state));
  if (!ok)
    refuse(s.id, `a is ${a}, the composite ${s.state}, b ${b} in phase ${s.phase} (Lemma 8: #A ≤ #G ≤ #B)`);
}
