/** The report a member gives at the end of its run (member-runtime.ts's `ClusterNodeReport`). */
import type { TcpTransport } from '@critsec/transport-tcp';
import type { ProcessId } from '@critsec/core';

/** What a node reports when it finishes. */
export interface ClusterNodeReport {
  /** This member's process id. */
  readonly id: ProcessId;
  /** This incarnation's session id. */
  readonly incarnation: string;
  /** Rounds completed (entries made). */
  readonly rounds: number;
  /** Wall-clock duration of the workload, ms. */
  readonly durationMs: number;
  /** Time from `entry()` called to resolved, ms, of counted entries (nearest-rank percentiles). */
  readonly entryWaitMs: {
    /** Median, ms. */
    readonly p50: number;
    /** 99th percentile, ms. */
    readonly p99: number;
    /** Longest, ms. */
    readonly max: number;
  };
  /** Messages to / from other processes (the session layer's counts, summed over peers). */
  readonly messages: {
    /** Messages this member sent (first transmissions). */
    readonly sent: number;
    /** Messages delivered to this member's protocol. */
    readonly delivered: number;
    /** Frames sent again after a reconnection. */
    readonly retransmitted: number;
    /** Frames received more than once and dropped. */
    readonly duplicates: number;
  };
  /** Transport events. */
  readonly transport: {
    /** Connections established (first ones and reconnections). */
    readonly connections: number;
    /** Connections lost. */
    readonly disconnections: number;
    /** Connections refused (failed authentication, admission control, a restarted peer). */
    readonly refused: number;
  };
  /** Errors reported by the transport or the CS object (first 20). */
  readonly errors: readonly string[];
}

/** The nearest-rank `q`-quantile of ascending `sorted` (0 when empty). */
function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** The report of a member whose workload returned after `durationMs`, with the waiting times of its counted entries. */
export function memberReport(
  transport: TcpTransport,
  errors: readonly string[],
  waits: readonly number[],
  durationMs: number,
): ClusterNodeReport {
  const id = transport.self;
  const sorted = [...waits].sort((a, b) => a - b);
  const messages = { sent: 0, delivered: 0, retransmitted: 0, duplicates: 0 };
  for (const p of transport.endpoint.peers) {
    if (p === id) continue;
    const s = transport.peerStats(p).session;
    messages.sent += s.sent;
    messages.delivered += s.delivered;
    messages.retransmitted += s.retransmitted;
    messages.duplicates += s.duplicates;
  }
  const st = transport.stats;
  return {
    id,
    incarnation: transport.session,
    rounds: waits.length,
    durationMs,
    entryWaitMs: { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: sorted.at(-1) ?? 0 },
    messages,
    transport: {
      connections: st.connections,
      disconnections: st.disconnections,
      refused: Object.values(st.refused).reduce((a, b) => a + b, 0),
    },
    errors: [...errors],
  };
}
