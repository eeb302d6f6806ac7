/*
 * The sequential workload (DESIGN.md 4): one call in flight in the whole cluster, each chosen at
 * random (seeded) among the moves the problem allows from the current configuration — counted
 * moves first, a finished process's uncounted move only when no counted one is allowed — and the
 * network quiescent before the next: the uncontended setting of the papers' bounds.
 */
import type { ProcessId } from '@critsec/core';
import type { Rng } from '@critsec/transport-sim';
import type { WorkloadEngine, WorkloadProcess } from './engine.js';

/** A move of the sequential workload. */
export interface SequentialMove<Req = unknown> {
  /** The process that moves. */
  readonly process: ProcessId;
  /** Its call. */
  readonly op: 'entry' | 'exit';
  /** The entry's request (`undefined` for an exit or an object that takes none). */
  readonly request: Req | undefined;
  /** False for a move of a process that finished its counted rounds. */
  readonly counted: boolean;
}

/** What {@link chooseMove} needs. */
export interface MoveSource<Req = unknown> {
  /** The processes, ascending. */
  readonly ids: readonly ProcessId[];
  /** True while process `i` has counted calls left. */
  counted(i: ProcessId): boolean;
  /** The generator of the choices. */
  readonly rng: Rng;
  /** The call process `i` would make next. */
  nextOp(i: ProcessId): 'entry' | 'exit';
  /** Draws the request of an entry of `i` (called once per candidate tried). */
  drawRequest(i: ProcessId): Req | undefined;
  /** Whether the problem allows `i`'s move from the current configuration. */
  allowed(i: ProcessId, op: 'entry' | 'exit', request: Req | undefined): boolean;
}

/**
 * Chooses the next move: among the processes with counted calls left, then (if none may move)
 * among the finished ones, a process drawn uniformly (`rng.int`), its request drawn, kept if
 * allowed, else removed from the candidates. `undefined` when no process may move.
 */
export function chooseMove<Req>(s: MoveSource<Req>): SequentialMove<Req> | undefined {
  for (const counted of [true, false]) {
    const candidates: ProcessId[] = [];
    for (const i of s.ids) if (s.counted(i) === counted) candidates.push(i);
    while (candidates.length > 0) {
      const k = s.rng.int(candidates.length);
      const i = candidates[k]!;
      const op = s.nextOp(i);
      const request = op === 'entry' ? s.drawRequest(i) : undefined;
      if (s.allowed(i, op, request)) return { process: i, op, request, counted };
      candidates[k] = candidates[candidates.length - 1]!;
      candidates.pop();
    }
  }
  return undefined;
}

/** How the sequential workload reaches quiescence between calls. */
export interface SequentialDriver<Req = unknown> {
  /** The generator of the choices. */
  readonly rng: Rng;
  /** Whether the problem allows the move from the current configuration. */
  allowed(i: ProcessId, op: 'entry' | 'exit', request: Req | undefined): boolean;
  /**
   * Waits until the network is quiescent after a call was made; returns how it went, for the
   * failure message of a call that did not settle (e.g. `'quiet'`, `'past its budget (maxEvents)'`).
   */
  quiesce(): Promise<string>;
}

const describeError = (err: unknown) => (err instanceof Error ? `${err.name}: ${err.message}` : String(err));

/**
 * Runs the sequential workload on an engine: until every counted call completed, a safety
 * violation (`halted`), a call that did not settle by quiescence or rejected, or no allowed move
 * (also after more than 4·n uncounted moves in a row). Failures are left in `engine.failure`.
 */
export async function runSequential<Req>(
  engine: WorkloadEngine<Req>,
  driver: SequentialDriver<Req>,
): Promise<void> {
  const halted = () => engine.options.halted?.() === true;
  const byId = new Map<ProcessId, WorkloadProcess>(engine.processes.map((p) => [p.id, p]));
  const nextOp = (i: ProcessId) => (byId.get(i)!.state() === 'OutCS' ? 'entry' : 'exit');
  const source: MoveSource<Req> = {
    ids: engine.processes.map((p) => p.id),
    counted: (i) => engine.done(i) < engine.expected,
    rng: driver.rng,
    nextOp,
    drawRequest: (i) => engine.drawRequest(byId.get(i)!),
    allowed: (i, op, req) => driver.allowed(i, op, req),
  };
  let extraMoves = 0;
  for (;;) {
    if (halted() || engine.failure !== null) break;
    if (engine.completed === engine.total) break;
    const move = chooseMove(source);
    extraMoves = move !== undefined && !move.counted ? extraMoves + 1 : 0;
    if (move === undefined || extraMoves > 4 * engine.processes.length) {
      engine.fail('sequential workload: no remaining move is allowed by the spec from this configuration');
      break;
    }
    const { rec, call } = engine.begin(byId.get(move.process)!, move.op, move.request, undefined);
    let settled = false;
    let error: unknown;
    call.then(
      () => {
        settled = true;
        rec.end = engine.options.clock.now();
      },
      (err: unknown) => {
        settled = true;
        error = err ?? new Error('rejected');
      },
    );
    const how = await driver.quiesce();
    if (halted()) break;
    if (!settled) {
      engine.fail(
        `P${move.process} ${move.op}() did not complete although it was the only invocation and the network went ${how}`,
      );
      break;
    }
    if (error !== undefined) {
      engine.fail(`P${move.process} ${move.op}() rejected: ${describeError(error)}`);
      break;
    }
    engine.complete(rec);
  }
}
