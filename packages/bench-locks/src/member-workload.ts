/**
 * What a bench member does (the `workload` given to `runClusterNode` by `bench/member.ts`):
 * uncontended, only the driver member runs rounds while the others wait; contended, every member
 * starts together (the runtime's start barrier, `ctx.startTogether()`) and runs rounds back to back, and a member that has finished keeps cycling, uncounted, until all
 * have finished (then withdraws its call in flight). A round is entry + exit (exit + entry for a member that starts
 * InCS), called on the CS object directly — not through the runtime's logged `ctx.entry`, so
 * the figure is the protocol's and the transport's, without the shared-log appends and the
 * progress messages of the safety check. Each member writes its timed rounds and the CPU time they cost it as JSON to
 * `<out>/m<id>.json` and then finishes (the runtime's DONE and BYE barriers).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClusterWorkload } from '@critsec/cluster';
import { ConfigurationError, type CSCallOptions, type CSObject, createRng } from '@critsec/core';
import { callObject, objectProcess, WorkloadEngine, wallClock } from '@critsec/harness';
import { runRounds } from './drive.js';
import type { TimedRound } from './stats.js';

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

/** What a member writes into `<out>/m<id>.json`. */
export interface MemberRounds {
  /** Its timed rounds (none for an idle member of an uncontended run). */
  readonly rounds: TimedRound[];
  /** The CPU time (user + system) this process spent during its timed rounds, ms. */
  readonly cpuMs: number;
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

/**
 * One round of `cs` from its current state: entry + exit from OutCS, exit + entry from InCS;
 * with `signal`, each call can be withdrawn (it then rejects with an AbortError).
 */
export function csRound(cs: CSObject<unknown>, signal?: AbortSignal): () => Promise<void> {
  const entry = cs.entry as (opts?: CSCallOptions) => Promise<void>;
  const opts = signal === undefined ? undefined : { signal };
  return async () => {
    if (cs.state === 'OutCS') {
      await entry.call(cs, opts);
      await cs.exit(opts);
    } else {
      await cs.exit(opts);
      await entry.call(cs, opts);
    }
  };
}

/**
 * Keeps `cs` cycling, uncounted, until `allFinished` resolves, then withdraws the call in
 * flight: a member that has finished its timed rounds must not leave the others blocked (an
 * (l,k)-CS with l ≥ 1 needs someone InCS before a member may exit), and keeps contending
 * while the others still measure. This is the workload engine of `@critsec/harness` with no
 * counted rounds (every call is an extra one), no think or hold time, on the wall clock.
 * @throws Error when a call rejects other than by that withdrawal.
 */
async function cycleUntil(cs: CSObject<unknown>, allFinished: Promise<void>): Promise<void> {
  const engine = new WorkloadEngine([objectProcess(cs, createRng(cs.id))], {
    clock: wallClock(),
    rounds: 0,
    think: 0,
    hold: 0,
    allFinished,
    withdraw: true,
    invoke: (rec, signal) => callObject(cs, rec, signal),
  });
  await engine.runConcurrent();
  if (engine.failure !== null) throw new Error(`bench-locks: ${engine.failure}`);
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
  // Contended, the members start together (launch skew would otherwise leave some alone).
  if (settings.mode === 'contended') await ctx.startTogether();
  const round = csRound(ctx.cs);
  if (runs) await runRounds(round, { warmup: settings.warmup, rounds: 0 });
  const before = process.cpuUsage();
  const rounds = runs ? await runRounds(round, { warmup: 0, rounds: ctx.workload.rounds }) : [];
  const cpu = process.cpuUsage(before);
  const result: MemberRounds = { rounds, cpuMs: (cpu.user + cpu.system) / 1000 };
  writeFileSync(join(settings.out, `m${ctx.id}.json`), JSON.stringify(result));
  const allFinished = ctx.finish();
  if (settings.mode === 'contended') await cycleUntil(ctx.cs, allFinished);
  await allFinished;
  return rounds.length;
};
