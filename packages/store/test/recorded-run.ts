/**
 * A recorded run of handler steps for the crash tests: step i (1-based) stages a seeded handful
 * of records — the kinds of state issue 27 names (grants and holders, a queue, a clock, request
 * tags), some deleted — and commits; with one commit per step, step i is transaction i. `expected`
 * gives the committed state after every prefix.
 */
import { createRng } from '@critsec/core';
import type { JsonValue, ProtocolStore, StoredRecord } from '../src/index.js';

/** One handler step: the records it stages (`undefined` deletes). */
export type Step = ReadonlyArray<readonly [string, JsonValue | undefined]>;

const KEYS = [
  'grant',
  'holder',
  'queue',
  'clock',
  'tag:0',
  'tag:1',
  'tag:2',
  'session',
  'outbox:0',
  'outbox:1',
];

/** `steps` seeded handler steps. */
export function recordedRun(seed: number, steps: number): Step[] {
  const rng = createRng(seed);
  const run: Step[] = [];
  for (let i = 1; i <= steps; i++) {
    const count = 1 + rng.int(4);
    const step: Array<[string, JsonValue | undefined]> = [];
    for (let r = 0; r < count; r++) {
      const key = KEYS[rng.int(KEYS.length)] as string;
      const value: JsonValue | undefined =
        rng.int(8) === 0
          ? undefined
          : { step: i, r, queue: Array.from({ length: rng.int(4) }, () => rng.int(9)) };
      step.push([key, value]);
    }
    run.push(step);
  }
  return run;
}

/** The committed records after each prefix of `run`: `[0]` is empty, `[j]` after step j. */
export function expectedStates(run: Step[]): Array<Map<string, StoredRecord>> {
  const states = [new Map<string, StoredRecord>()];
  run.forEach((step, i) => {
    const next = new Map(states[i]);
    for (const [key, value] of step) {
      if (value === undefined) next.delete(key);
      else next.set(key, { value, version: i + 1 });
    }
    states.push(next);
  });
  return states;
}

/** Stage step `i` (0-based) of `run` on `store`. */
export function stageStep(store: ProtocolStore, run: Step[], i: number): void {
  for (const [key, value] of run[i] as Step) store.stage(key, value);
}

/** The records of a snapshot as a plain, comparable object. */
export function plain(records: ReadonlyMap<string, StoredRecord>): Record<string, StoredRecord> {
  return Object.fromEntries([...records].sort(([a], [b]) => (a < b ? -1 : 1)));
}
