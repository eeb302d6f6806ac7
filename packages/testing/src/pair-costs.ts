/**
 * Messages per exit+entry pair, taken apart for tests that check a paper's per-pair bound: the
 * k-th completed entry of a process paired with its k-th completed exit ({@link exitEntryPairs}),
 * and, under the sequential (uncontended) workload, each pair's messages by channel and type
 * ({@link sequentialPairs}) — exact there, since every message sent during an invocation (until
 * the network is quiescent) belongs to it.
 */
import type { ProcessId } from '@critsec/core';
import type { SimCluster } from '@critsec/harness';
import { type InvocationRecord, runWorkload, type WorkloadResult } from '@critsec/harness';

/** One process's k-th completed entry with its k-th completed exit. */
export interface ExitEntryPair {
  /** The process. */
  readonly process: ProcessId;
  /** The pair's entry. */
  readonly entry: InvocationRecord;
  /** The pair's exit. */
  readonly exit: InvocationRecord;
}

/**
 * The exit+entry pairs of a workload's records, process by process (in the order processes first
 * appear), k-th entry with k-th exit. Extra calls, aborted entries and calls that never completed
 * are left out; an entry without its exit (or the converse) makes no pair.
 */
export function exitEntryPairs(records: readonly InvocationRecord[]): ExitEntryPair[] {
  const byProcess = new Map<ProcessId, { entry: InvocationRecord[]; exit: InvocationRecord[] }>();
  for (const r of records) {
    if (r.extra || r.aborted || Number.isNaN(r.end)) continue;
    let b = byProcess.get(r.process);
    if (b === undefined) {
      b = { entry: [], exit: [] };
      byProcess.set(r.process, b);
    }
    b[r.op].push(r);
  }
  const out: ExitEntryPair[] = [];
  for (const [process, b] of byProcess)
    for (let k = 0; k < Math.min(b.entry.length, b.exit.length); k++)
      out.push({ process, entry: b.entry[k]!, exit: b.exit[k]! });
  return out;
}

/** The messages of one exit+entry pair of one process, by `'<channel> <type>'`. */
export interface PairCost {
  /** The pair's process. */
  readonly process: ProcessId;
  /** Messages of the pair. */
  readonly total: number;
  /** Messages of the pair by `'<channel path> <type>'` (`' REQUEST'` on the root channel). */
  readonly byType: Readonly<Record<string, number>>;
}

/** Sum of the pair's messages whose channel path is exactly `channel` (`''` for the root). */
export function channelTotal(pair: PairCost, channel: string): number {
  let s = 0;
  for (const [key, c] of Object.entries(pair.byType))
    if (key.slice(0, key.lastIndexOf(' ')) === channel) s += c;
  return s;
}

/**
 * Runs the sequential workload (`rounds` per process) and splits its messages into exit+entry
 * pairs: the sent messages, in order, fall into consecutive runs of `record.messages`, one per
 * invocation record.
 * @throws Error if the records do not account for every message sent.
 */
export async function sequentialPairs(
  cluster: SimCluster<void>,
  rounds: number,
): Promise<{
  /** The sequential workload's result. */
  result: WorkloadResult;
  /** The cost of every exit+entry pair, in order. */
  pairs: PairCost[];
}> {
  const sent: string[] = [];
  const off = cluster.net.onSend((m) => sent.push(`${m.channel} ${m.msg.type}`));
  const result = await runWorkload(cluster, { kind: 'sequential', rounds });
  off();
  let at = 0;
  const sentBy = new Map<InvocationRecord, string[]>();
  for (const r of result.records) {
    sentBy.set(r, sent.slice(at, at + r.messages));
    at += r.messages;
  }
  if (at !== sent.length) throw new Error(`accounting: ${sent.length} messages sent, ${at} attributed`);
  const pairs = exitEntryPairs(result.records).map(({ process, entry, exit }): PairCost => {
    const keys = [...sentBy.get(entry)!, ...sentBy.get(exit)!];
    const byType: Record<string, number> = {};
    for (const key of keys) byType[key] = (byType[key] ?? 0) + 1;
    return { process, total: keys.length, byType };
  });
  return { result, pairs };
}
