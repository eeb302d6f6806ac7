/*
 * The series the simulation report plots, derived from a {@link SimulationRecording}: the
 * per-process state intervals, the number of processes InCS over time, messages per exit+entry
 * pair and waiting times. Pure functions of the recording; times in time units.
 */
import type { CSState, ProcessId } from '@critsec/core';
import type { CallRecord, SimulationRecording } from './report-recording.js';

/** A stretch of one process's timeline: InCS, or waiting for an entry or an exit to return. */
export interface TimelineBar {
  readonly p: ProcessId;
  readonly kind: 'InCS' | 'entry waiting' | 'exit waiting';
  readonly from: number;
  readonly to: number;
}

/** The number of processes InCS from time `t` on (a step function). */
export interface CountPoint {
  readonly t: number;
  readonly inCS: number;
}

/** One completed call's waiting time (time units). */
export interface WaitPoint {
  readonly op: 'entry' | 'exit';
  readonly wait: number;
}

/**
 * The InCS stretches of the first `maxProcesses` processes (from the initial configuration and
 * the state changes; a stretch still open at the end closes at `end`) and their calls in flight
 * (a call pending at the end closes at `end`).
 */
export function timelineBars(rec: SimulationRecording, maxProcesses: number): TimelineBar[] {
  const shown = (p: ProcessId) => p < maxProcesses;
  const bars: TimelineBar[] = [];
  const since = new Map<ProcessId, number>();
  rec.initial.forEach((s, p) => {
    if (s === 'InCS' && shown(p)) since.set(p, 0);
  });
  for (const c of rec.changes) {
    if (!shown(c.p)) continue;
    const from = since.get(c.p);
    if (c.s === 'InCS' && from === undefined) since.set(c.p, c.t);
    else if (c.s === 'OutCS' && from !== undefined) {
      bars.push({ p: c.p, kind: 'InCS', from, to: c.t });
      since.delete(c.p);
    }
  }
  for (const [p, from] of since) bars.push({ p, kind: 'InCS', from, to: rec.end });
  for (const call of rec.calls) {
    if (!shown(call.p) || call.aborted) continue;
    const to = Number.isNaN(call.end) ? rec.end : call.end;
    if (to > call.start) bars.push({ p: call.p, kind: `${call.op} waiting`, from: call.start, to });
  }
  return bars;
}

/** The number of processes InCS: at 0 (the initial configuration), after every change, at the end. */
export function inCSCount(rec: SimulationRecording): CountPoint[] {
  const states: CSState[] = [...rec.initial];
  let inCS = states.filter((s) => s === 'InCS').length;
  const points: CountPoint[] = [{ t: 0, inCS }];
  for (const c of rec.changes) {
    if (states[c.p] === c.s) continue;
    inCS += c.s === 'InCS' ? 1 : -1;
    states[c.p] = c.s;
    points.push({ t: c.t, inCS });
  }
  points.push({ t: Math.max(rec.end, points[points.length - 1]!.t), inCS });
  return points;
}

/**
 * Messages per exit+entry pair, as the summary counts them (`perPairMessages` of
 * @critsec/testing): per process the k-th completed entry with its k-th completed exit, extra
 * calls left out, an aborted entry's messages charged to the entry that finally succeeded.
 */
export function pairMessages(calls: readonly CallRecord[]): number[] {
  const byProcess = new Map<ProcessId, { entries: number[]; exits: number[]; carry: number }>();
  for (const c of calls) {
    if (c.extra) continue;
    let b = byProcess.get(c.p);
    if (b === undefined) {
      b = { entries: [], exits: [], carry: 0 };
      byProcess.set(c.p, b);
    }
    if (c.op === 'entry' && c.aborted) b.carry += c.messages;
    else if (c.op === 'entry' && !Number.isNaN(c.end)) {
      b.entries.push(c.messages + b.carry);
      b.carry = 0;
    } else if (c.op === 'exit' && !Number.isNaN(c.end)) b.exits.push(c.messages);
  }
  const pairs: number[] = [];
  for (const { entries, exits } of byProcess.values()) {
    const m = Math.min(entries.length, exits.length);
    for (let k = 0; k < m; k++) pairs.push(entries[k]! + exits[k]!);
  }
  return pairs;
}

/** Waiting times of the completed (not aborted, not extra) calls. */
export function waitingTimes(calls: readonly CallRecord[]): WaitPoint[] {
  return calls
    .filter((c) => !c.extra && !c.aborted && !Number.isNaN(c.end))
    .map((c) => ({ op: c.op, wait: c.end - c.start }));
}
