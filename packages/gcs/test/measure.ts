/**
 * Exact per-pair message accounting for the sequential (uncontended) workload: every message
 * sent during an invocation (until the network is quiescent) belongs to it, so the sent messages,
 * in order, split into consecutive runs of `record.messages` — one per invocation record.
 */
import { runWorkload, type SimCluster, type WorkloadResult } from '@critsec/testing';

/** The messages of one exit+entry pair of one process, by `'<channel> <type>'`. */
export interface PairCost {
  readonly process: number;
  readonly total: number;
  readonly byType: Readonly<Record<string, number>>;
}

/** Sum of the pair's messages whose channel is exactly `channel`. */
export function channelTotal(pair: PairCost, channel: string): number {
  let s = 0;
  for (const [key, c] of Object.entries(pair.byType))
    if (key.slice(0, key.lastIndexOf(' ')) === channel) s += c;
  return s;
}

/** Runs the sequential workload and splits its messages into exit+entry pairs. */
export async function sequentialPairs(
  cluster: SimCluster<void>,
  rounds: number,
): Promise<{ result: WorkloadResult; pairs: PairCost[] }> {
  const sent: string[] = [];
  const off = cluster.net.onSend((m) => sent.push(`${m.channel} ${m.msg.type}`));
  const result = await runWorkload(cluster, { kind: 'sequential', rounds });
  off();
  let at = 0;
  const perRecord = result.records.map((r) => {
    const mine = sent.slice(at, at + r.messages);
    at += r.messages;
    return mine;
  });
  if (at !== sent.length) throw new Error(`accounting: ${sent.length} messages sent, ${at} attributed`);
  const byProcess = new Map<number, { entries: string[][]; exits: string[][] }>();
  result.records.forEach((r, idx) => {
    if (r.extra || Number.isNaN(r.end)) return;
    let b = byProcess.get(r.process);
    if (b === undefined) {
      b = { entries: [], exits: [] };
      byProcess.set(r.process, b);
    }
    (r.op === 'entry' ? b.entries : b.exits).push(perRecord[idx]!);
  });
  const pairs: PairCost[] = [];
  for (const [process, { entries, exits }] of byProcess) {
    for (let k = 0; k < Math.min(entries.length, exits.length); k++) {
      const byType: Record<string, number> = {};
      for (const key of [...entries[k]!, ...exits[k]!]) byType[key] = (byType[key] ?? 0) + 1;
      pairs.push({ process, total: entries[k]!.length + exits[k]!.length, byType });
    }
  }
  return { result, pairs };
}
