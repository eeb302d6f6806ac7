/**
 * The worst-case schedule search (issue 26 §2): "a bound is only as good as the worst schedule
 * tried". Random-restart hill climbing over the choice sequence of a controlled schedule
 * (`schedule-run.ts`) that maximises a measure — messages per exit+entry pair, entry or exit
 * waiting time, processes waiting — budgeted by steps (events delivered), never by wall-clock
 * time. What it finds is a choice sequence that {@link replaySchedule} replays to the same value.
 */
import { createRng } from '@critsec/transport-sim';
import { PRIORITIES, ScheduleChoices } from './schedule-choices.js';
import { runSchedule, type ScheduleRun, type ScheduleSetup } from './schedule-run.js';

/**
 * What the search maximises over one run: `'messagesPerPair'` (the largest exit+entry pair,
 * messages charged causally), `'meanMessagesPerPair'` (the run's mean over its pairs, 0 without
 * one), `'entryWaiting'` / `'exitWaiting'` (the longest counted call, time
 * units in the `'timing'` space, delivered events in the `'order'` space), `'waitingProcesses'`
 * (most calls in flight at once), or any function of the run.
 */
export type WorstCaseMeasure =
  | 'messagesPerPair'
  | 'meanMessagesPerPair'
  | 'entryWaiting'
  | 'exitWaiting'
  | 'waitingProcesses'
  | ((run: ScheduleRun) => number);

/** Options of {@link searchWorstSchedule}: the schedule's setup, the measure and the budget. */
export interface WorstCaseOptions<Req = void> extends ScheduleSetup<Req> {
  /** What to maximise. */
  readonly measure: WorstCaseMeasure;
  /** The budget: the search stops once its runs took this many steps (events) in all. */
  readonly maxSteps: number;
  /** Seed of the search's own draws (default 1): the same seed and budget find the same schedule. */
  readonly seed?: number;
  /** `'climb'` (default): random-restart hill climbing; `'random'`: every run a fresh random schedule (the baseline). */
  readonly strategy?: 'climb' | 'random';
  /** `'climb'`: restart after this many mutants in a row that did not rank higher (default 100). */
  readonly patience?: number;
}

/** The worst schedule a search found. */
export interface WorstCaseResult {
  /** The measure's value on it. */
  readonly value: number;
  /** Its choices, lane by lane ({@link replaySchedule} replays them). */
  readonly choices: ScheduleLanes;
  /** The same, encoded for pasting into a test ({@link encodeChoices}). */
  readonly replay: string;
  /** The run itself. */
  readonly run: ScheduleRun;
  /** Runs made. */
  readonly runs: number;
  /** Steps spent (events delivered or processed, all runs). */
  readonly steps: number;
  /** Climbs started (1 per run for `'random'`). */
  readonly restarts: number;
  /** The first run that failed (safety violation, a call that threw) — the search stops there — or `null`. */
  readonly failure: string | null;
}

/** The value of `measure` on one run (0 when the run has nothing to measure). */
export function measureRun(measure: WorstCaseMeasure, run: ScheduleRun): number {
  if (typeof measure === 'function') return measure(run);
  if (measure === 'messagesPerPair') return Math.max(0, ...run.pairs.map((p) => p.messages));
  if (measure === 'meanMessagesPerPair')
    return run.pairs.length === 0 ? 0 : run.pairs.reduce((t, p) => t + p.messages, 0) / run.pairs.length;
  if (measure === 'waitingProcesses') return run.maxWaiting;
  const op = measure === 'entryWaiting' ? 'entry' : 'exit';
  let max = 0;
  for (const r of run.records)
    if (r.op === op && !r.extra && !Number.isNaN(r.end)) max = Math.max(max, r.end - r.start);
  return max;
}

/** Lane → choices, as {@link ScheduleChoices} reads and records them. */
export type ScheduleLanes = ReadonlyMap<string, readonly number[]>;

/**
 * A schedule's choices as one string to paste into a test: `lane:choices` separated by spaces,
 * each lane's choices one base-36 digit each (or base-36 numbers joined by `.` if one is ≥ 36).
 */
export function encodeChoices(lanes: ScheduleLanes): string {
  const out: string[] = [];
  for (const [lane, cs] of lanes) {
    const digits = cs.map((c) => c.toString(36));
    out.push(`${lane}:${digits.join(cs.every((c) => c < 36) ? '' : '.')}`);
  }
  return out.join(' ');
}

/** The inverse of {@link encodeChoices}. @throws Error for a malformed lane or choice. */
export function decodeChoices(text: string): Map<string, number[]> {
  const lanes = new Map<string, number[]>();
  for (const part of text.split(' ').filter((p) => p !== '')) {
    const m = /^([a-z0-9-]+):([0-9a-z.]*)$/.exec(part);
    if (m === null) throw new Error(`not a schedule lane: '${part}'`);
    const body = m[2]!;
    const values = body === '' ? [] : body.includes('.') ? body.split('.') : [...body];
    lanes.set(
      m[1]!,
      values.map((v) => {
        if (v === '') throw new Error(`empty choice in lane '${m[1]}'`);
        return Number.parseInt(v, 36);
      }),
    );
  }
  return lanes;
}

/**
 * Replays one schedule: `setup` (the search's options will do) under `choices` (the lanes of a
 * run or the {@link encodeChoices} string the search printed); a choice missing is the first
 * option. Same setup and choices ⇒ same run, the measured value included.
 * @throws Error for a malformed choice string; ConfigurationError for a bad cluster.
 */
export function replaySchedule<Req>(
  setup: ScheduleSetup<Req>,
  choices: ScheduleLanes | string,
): Promise<ScheduleRun> {
  const lanes = typeof choices === 'string' ? decodeChoices(choices) : choices;
  return runSchedule(setup, new ScheduleChoices(lanes));
}

/** The climb's tie-break between runs of equal value: the messages of every pair (contention). */
function busy(run: ScheduleRun): number {
  let s = 0;
  for (const p of run.pairs) s += p.messages;
  return s;
}

/** A run with its value and its rank in the climb. */
interface Ranked {
  readonly run: ScheduleRun;
  readonly value: number;
  readonly rank: readonly [number, number];
}

/** Whether rank `a` is above `b` (value first, then the tie-break). */
function above(a: readonly [number, number], b: readonly [number, number]): boolean {
  return a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);
}

/**
 * Searches for the schedule that maximises `options.measure` within `options.maxSteps` steps.
 * `'climb'` (random-restart hill climbing): each climb starts from a fresh random schedule, or
 * from the default schedule (every choice its first option: unit delays, no pauses, the first
 * pending event; run once, first) if that ranks higher; each step mutates the current schedule's lanes (one or two choices
 * redrawn, or — one time in ten — a lane's tail redrawn), keeps the mutant unless it ranks lower
 * (rank: the value, then the messages of all pairs, so that plateaus drift towards contention),
 * and restarts after `patience` mutants in a row that did not rank higher. `'random'`: a fresh
 * random schedule every run (each event a random priority, each delay a random pick) — the
 * baseline. The worst run is the first to reach the largest value; the search stops at the first
 * failing run. Deterministic: same options ⇒ same result.
 * @throws RangeError unless `maxSteps` is a positive integer.
 */
export async function searchWorstSchedule<Req>(options: WorstCaseOptions<Req>): Promise<WorstCaseResult> {
  if (!(Number.isSafeInteger(options.maxSteps) && options.maxSteps > 0))
    throw new RangeError(`maxSteps must be a positive integer, got ${options.maxSteps}`);
  const rng = createRng(options.seed ?? 1).fork('worst-case');
  const climb = (options.strategy ?? 'climb') === 'climb';
  const patience = options.patience ?? 100;
  let steps = 0;
  let runs = 0;
  let restarts = 0;
  let best: { run: ScheduleRun; value: number } | undefined;
  let current: Ranked | undefined;
  let stale = 0;
  const mutate = (lanes: ScheduleLanes): Map<string, number[]> => {
    const c = new Map([...lanes].map(([k, v]) => [k, [...v]]));
    const keys = [...c.keys()].filter((k) => c.get(k)!.length > 0);
    if (keys.length === 0) return c;
    if (rng.chance(0.1)) {
      const lane = c.get(rng.pick(keys))!; // the large step: a lane's tail drawn afresh
      lane.length = rng.int(lane.length);
      return c;
    }
    for (let k = 1 + rng.int(2); k > 0; k--) {
      const lane = c.get(rng.pick(keys))!;
      lane[rng.int(lane.length)] = rng.int(PRIORITIES);
    }
    return c;
  };
  let fallback: Ranked | undefined; // the default schedule's run
  while (steps < options.maxSteps) {
    const fresh = !climb || current === undefined || stale >= patience;
    const first = climb && runs === 0; // the default schedule: every choice its first option
    if (fresh) {
      if (!first) restarts++;
      stale = 0;
    }
    const given = fresh ? new Map<string, number[]>() : mutate(current!.run.choices);
    const run = await runSchedule(options, new ScheduleChoices(given, first ? undefined : rng));
    runs++;
    steps += Math.max(1, run.steps);
    const value = measureRun(options.measure, run);
    if (best === undefined || value > best.value || run.failure !== null) best = { run, value };
    if (run.failure !== null) break;
    const next: Ranked = { run, value, rank: [value, busy(run)] };
    if (first) {
      fallback = next; // current stays unset: the next run draws a random schedule
    } else if (fresh) current = fallback !== undefined && above(fallback.rank, next.rank) ? fallback : next;
    else if (above(next.rank, current!.rank)) {
      stale = 0;
      current = next;
    } else {
      stale++;
      if (!above(current!.rank, next.rank)) current = next;
    }
  }
  const { run, value } = best!;
  return {
    value,
    choices: run.choices,
    replay: encodeChoices(run.choices),
    run,
    runs,
    steps,
    restarts,
    failure: run.failure,
  };
}

/**
 * The found schedule as a test case to paste: a comment with the value, strategy, seed and budget,
 * and the replay with its expected value.
 */
export function describeWorstCase(
  result: WorstCaseResult,
  measure: WorstCaseMeasure,
  label = 'setup',
): string {
  const name = typeof measure === 'function' ? 'measure' : `'${measure}'`;
  return [
    `// worst ${name} = ${result.value} after ${result.runs} runs, ${result.steps} steps${result.failure === null ? '' : ` — FAILED: ${result.failure}`}`,
    `const run = await replaySchedule(${label}, '${result.replay}');`,
    `expect(measureRun(${name}, run)).toBe(${result.value});`,
  ].join('\n');
}
