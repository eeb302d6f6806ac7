/**
 * The workload module the OS-process clusters of these tests run (`workload.module` of a
 * `@critsec/transport-tcp` cluster configuration): the concurrent compliance workload in real
 * time, as the in-process harness runs it. `rounds` counted rounds (entry and exit, from the
 * member's initial state) with think (OutCS) and hold (InCS) times drawn uniformly from
 * [0, 2·mean] ms (`thinkMs`, `holdMs`; seed `settings.seed`); then the member keeps cycling,
 * uncounted, until every member has finished (`ctx.allFinished`) — so a finished member never
 * blocks the others, which an (l,k)-CS with l ≥ 1 needs — and withdraws its uncounted call in
 * flight through the abort signal. Every call goes through `ctx.entry` / `ctx.exit`, which
 * append the shared-log records of the launcher's safety check.
 */
import { isAbortError } from '@critsec/core';
import { createRng } from '@critsec/transport-sim';
import type { ClusterWorkloadContext } from '@critsec/transport-tcp';

const sleep = (ms: number) => (ms > 0 ? new Promise<void>((r) => setTimeout(r, ms)) : Promise.resolve());

/** Runs the workload; returns the number of counted rounds. */
export async function runWorkload(ctx: ClusterWorkloadContext): Promise<number> {
  const { rounds, thinkMs = 2, holdMs = 1 } = ctx.workload;
  const settings = (ctx.workload.settings ?? {}) as { seed?: unknown };
  const seed = typeof settings.seed === 'number' ? settings.seed : 1;
  const rng = createRng(seed).fork(`P${ctx.id}`);
  const draw = (mean: number) => (mean <= 0 ? 0 : rng.next() * 2 * mean);
  const stop = new AbortController();
  void ctx.allFinished.then(() => stop.abort(new Error('every member finished its rounds')));
  const expected = 2 * rounds;
  let counted = 0;
  let calls = 0;
  if (expected === 0) void ctx.finish();
  while (!stop.signal.aborted) {
    const op = ctx.cs.state === 'OutCS' ? 'entry' : 'exit';
    await sleep(draw(op === 'entry' ? thinkMs : holdMs));
    if (stop.signal.aborted) break;
    const isCounted = counted < expected;
    const round = Math.floor(calls / 2) + 1;
    calls++;
    try {
      if (op === 'entry') await ctx.entry(round, isCounted ? {} : { signal: stop.signal, counted: false });
      else await ctx.exit(round, isCounted ? {} : { signal: stop.signal });
    } catch (err) {
      if (!isCounted && stop.signal.aborted && isAbortError(err)) break;
      throw err;
    }
    if (isCounted && ++counted === expected) void ctx.finish();
  }
  return rounds;
}
