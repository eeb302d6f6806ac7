/*
 * The durable state of compose(a, b) (issue 27, crash recovery; the contract is `DurableCSObject`
 * of `@critsec/core`): Algorithm 3's own variables — the composite's state and where its call
 * is (Kamei & Kakugawa, IJNC 9(2), 2019, Sec. 5) — with the two inner objects' states nested
 * (each checked by its own factory), and how a recovered one is checked.
 */
import { ConfigurationError, type CSState, type JsonValue, type ProcessId } from '@critsec/core';
import * as v from 'valibot';

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

const json = (what: string) => v.custom<JsonValue>((x) => x !== undefined, `the state of ${what} is missing`);
const schema = v.strictObject({
  format: v.literal(COMPOSE_DURABLE_FORMAT),
  id: v.pipe(v.number(), v.integer(), v.minValue(0)),
  state: v.picklist(['InCS', 'OutCS']),
  phase: v.picklist(['idle', 'a.Exit', 'b.Exit', 'b.Entry', 'a.Entry']),
  a: json('a'),
  b: json('b'),
});

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
  const parsed = v.safeParse(schema, recovered);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    refuse(
      id,
      `not a ${COMPOSE_DURABLE_FORMAT} state (${v.getDotPath(issue) ?? '(root)'}: ${issue.message})`,
    );
  }
  const s = parsed.output as ComposeDurableState;
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
