/**
 * Coverage marks in the Antithesis `sometimes` style: protocol code calls `reach('maekawa:
 * relinquish')` on a rare path; a test installs a collector and asserts that every rare path was
 * taken at least once across its seed set. Costs one property read when nobody collects. The
 * registry lives on `globalThis` so ESM and CJS copies of this package share it.
 */
const KEY = Symbol.for('critsec.coverage.collectors');

type Registry = Set<(label: string) => void>;

function registry(): Registry {
  const g = globalThis as { [KEY]?: Registry };
  g[KEY] ??= new Set();
  return g[KEY];
}

const collectors = registry();

/** Marks that a rare path was taken. `label` is `'<algorithm>:<path>'`. */
export function reach(label: string): void {
  if (collectors.size === 0) return;
  for (const c of collectors) c(label);
}

/**
 * {@link reach} typed against a package's list of marks, so a misspelt label fails the type
 * check: `const mark = reachOf(['maekawa:inquire', …] as const)`, then `mark('maekawa:inquire')`.
 * Returns `reach` itself (same cost, same collectors); only the type of `labels` is used.
 *
 * @param labels every mark of the package, `'<algorithm>:<path>'` (a `const` tuple).
 * @returns `reach`, whose `label` must be one of `labels`.
 */
export function reachOf<const L extends readonly string[]>(labels: L): (label: L[number]) => void {
  void labels;
  return reach;
}

/** A running collection of {@link reach} marks. */
export interface ReachCollector {
  /** How often each label was reached since the collector started. */
  readonly counts: ReadonlyMap<string, number>;
  /** Labels of `expected` that were never reached. */
  missing(expected: readonly string[]): string[];
  /** Stops collecting. */
  stop(): void;
}

/** Starts collecting {@link reach} marks (in this thread). */
export function collectReached(): ReachCollector {
  const counts = new Map<string, number>();
  const fn = (label: string) => counts.set(label, (counts.get(label) ?? 0) + 1);
  collectors.add(fn);
  return {
    counts,
    missing: (expected) => expected.filter((l) => !counts.has(l)),
    stop: () => {
      collectors.delete(fn);
    },
  };
}
