/**
 * What a bench member does (the `workload` given to `runClusterNode` by `bench/member.ts`):
 * uncontended, only the driver member runs rounds while the others wait; contended, every member
 * runs rounds back to back. A round is entry + exit (exit + entry for a member that starts
 * InCS), called on the CS object directly — not through the runtime's logged `ctx.entry`, so
 * the figure is the protocol's and the transport's, without the shared-log appends and the
 * progress messages of the safety check. Each member writes its timed rounds as JSON to
 * `<out>/m<id>.json` and then finishes (the runtime's DONE and BYE barriers).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClusterWorkload } from '@critsec/cluster';
import { ConfigurationError, type CSObject } from '@critsec/core';
import { runRounds } from './drive.js';

/** `workload.settings` of a bench cluster. */
interface BenchWorkloadSettings {
  readonly mode: 'uncontended' | 'contended';
  /** The member that runs rounds when uncontended. */
  readonly driver: number;
  /** Untimed rounds before the timed ones. */
  readonly warmup: number;
  /** Directory the members write their rounds into. */
  readonly out: string;
}

function isSettings(x: unknown): x is BenchWorkloadSettings {
  const s = x as Partial<BenchWorkloadSettings> | null;
  return (
    typeof s === 'object' &&
    s !== null &&
    (s.mode === 'uncontended' || s.mode === 'contended') &&
    Number.isSafeInteger(s.driver) &&
    Number.isSafeInteger(s.warmup) &&
    typeof s.out === 'string'
  );
}

/** One round of `cs` from its current state: entry + exit from OutCS, exit + entry from InCS. */
export function csRound(cs: CSObject<unknown>): () => Promise<void> {
  const entry = cs.entry as () => Promise<void>;
  return async () => {
    if (cs.state === 'OutCS') {
      await entry.call(cs);
      await cs.exit();
    } else {
      await cs.exit();
      await entry.call(cs);
    }
  };
}

/**
 * The bench member workload (see the module comment); resolves to the number of timed rounds.
 * @throws ConfigurationError when `workload.settings` is not {@link BenchWorkloadSettings}.
 */
export const benchWorkload: ClusterWorkload = async (ctx) => {
  const settings = ctx.workload.settings;
  if (!isSettings(settings)) {
    throw new ConfigurationError(
      `bench-locks: workload.settings must be { mode, driver, warmup, out }, got ${JSON.stringify(settings)}`,
    );
  }
  const runs = settings.mode === 'contended' || ctx.id === settings.driver;
  const rounds = runs
    ? await runRounds(csRound(ctx.cs), { warmup: settings.warmup, rounds: ctx.workload.rounds })
    : [];
  writeFileSync(join(settings.out, `m${ctx.id}.json`), JSON.stringify(rounds));
  await ctx.finish();
  return rounds.length;
};
