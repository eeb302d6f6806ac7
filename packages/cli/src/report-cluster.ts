/*
 * `critsec cluster --report`: the report's recording read back from the cluster's shared log
 * (every member appends `entry-called`, `entry-done`, `exit-called`, `exit-done`, … with its
 * wall-clock ms; @critsec/cluster's shared-log.ts), time 0 at the first call. The log has no per-call message counts: the
 * messages figure shows the summary's mean / p99 / max per pair instead of a histogram.
 */
import type { CSState, ProblemSpec, ProcessId } from '@critsec/core';
import type { SharedLogRecord } from '@critsec/cluster';
import type { CallRecord, SimulationRecording, StateChange } from './report-recording.js';

/**
 * The recording of a cluster run from its shared log, times in ms from the first record. A call
 * of a round beyond `rounds` is `extra`; a call with no `…-done` stays pending (`end` NaN).
 */
export function clusterRecording(
  records: readonly SharedLogRecord[],
  o: { spec: ProblemSpec; initial: readonly CSState[]; rounds: number },
): SimulationRecording {
  // time 0: the first call (the members' start-up before it is left out)
  let t0 = Number.POSITIVE_INFINITY;
  for (const r of records) if (r.e.endsWith('-called')) t0 = Math.min(t0, r.t);
  if (t0 === Number.POSITIVE_INFINITY) t0 = records[0]?.t ?? 0;
  const changes: StateChange[] = [];
  const calls: { -readonly [K in keyof CallRecord]: CallRecord[K] }[] = [];
  const open = new Map<string, number>();
  let end = 0;
  for (const r of records) {
    const t = Math.max(0, r.t - t0);
    end = Math.max(end, t);
    const op = r.e.startsWith('entry') ? 'entry' : r.e.startsWith('exit') ? 'exit' : null;
    if (op === null) continue;
    const key = `${r.p}:${op}`;
    if (r.e.endsWith('-called')) {
      open.set(key, calls.length);
      calls.push(call(r.p, op, t, (r.r ?? 0) > o.rounds));
      continue;
    }
    const index = open.get(key);
    open.delete(key);
    const c = index === undefined ? undefined : calls[index];
    if (r.e.endsWith('-done')) {
      changes.push({ p: r.p, s: op === 'entry' ? 'InCS' : 'OutCS', t });
      if (c !== undefined) c.end = t;
    } else if (c !== undefined) {
      c.end = t;
      c.aborted = true;
    }
  }
  return { spec: o.spec, initial: o.initial, changes, calls, end, perCallMessages: false };
}

function call(p: ProcessId, op: 'entry' | 'exit', start: number, extra: boolean): CallRecord {
  return { p, op, start, end: Number.NaN, messages: Number.NaN, aborted: false, extra };
}
