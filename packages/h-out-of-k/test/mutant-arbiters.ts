/**
 * Deliberately broken arbiters (Fig. 1's request rule, one decision broken each), kept here in
 * the tests — not in `src/` — to show the suite catches them (`mutants.test.ts`, `explore.test.ts`).
 */
import { type ArbiterClass, HOutOfKArbiter } from '../src/arbiter.js';

/** Grants a request that fits within k without checking `x ≥ h'`. */
class GrantWithoutEnough extends HOutOfKArbiter {
  protected override enough(): boolean {
    return true;
  }
}

/** Never cancels an OK of a lower-priority request. */
class NoCancel extends HOutOfKArbiter {
  protected override cancelLowerPriority(): void {}
}

/** `'fig1'`: the arbiter of Fig. 1 as implemented; the others are the mutants. */
export const arbiters = {
  fig1: HOutOfKArbiter,
  'mutant-grant': GrantWithoutEnough,
  'mutant-no-cancel': NoCancel,
} satisfies Record<string, ArbiterClass>;

/** A name of {@link arbiters}. */
export type Rules = keyof typeof arbiters;
