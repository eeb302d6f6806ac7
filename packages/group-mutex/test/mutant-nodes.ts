/**
 * The grant-rule mutant — E.4 of Fig. 6 / D.2 of Fig. 8 without the group test, i.e. a node
 * grants a lock to any group — kept here in the tests, not in `src/`, as subclasses of the nodes
 * (`mutant.test.ts` shows the suite catches it).
 */
import { MaekawaMNode } from '../src/maekawa-m-node.js';
import { MaekawaSNode } from '../src/maekawa-s-node.js';

/** Maekawa_M's node granting any group while it has a lock left for it. */
class AnyGroupM extends MaekawaMNode {
  protected override grantable(g: number): boolean {
    return super.grantable(g) || this.lock_ps.size < this.plan.maxLocks[g]!;
  }
}

/** Maekawa_S's node taking every request as of the locked group. */
class AnyGroupS extends MaekawaSNode {
  protected override sameGroup(): boolean {
    return true;
  }
}

/** The node classes of the mutant, for `groupMutexWithRules(options, 'default', anyGroupNodes)`. */
export const anyGroupNodes = { M: AnyGroupM, S: AnyGroupS } as const;
