import type { CSFactory, Endpoint, Message, ProcessId } from '@critsec/core';
import { type Coterie, fromQuorums, grid, majority, projectivePlane, tree, wall } from '@critsec/coteries';
import type { InvocationRecord, SimCluster } from '@critsec/harness';
import type { SimNetwork } from '@critsec/transport-sim';
import type { MaekawaSnapshot } from '../src/index.js';

/** The n of the compliance matrix. */
export const SIZES = [1, 2, 3, 4, 5, 7, 9, 13, 16, 25] as const;

/** Crumbling-wall row widths used for each n (top row first; rows below the top have ≥ 2). */
function wallWidths(n: number): number[] {
  const table: Record<number, number[]> = {
    1: [1],
    2: [2],
    3: [1, 2],
    4: [2, 2],
    5: [1, 2, 2],
    7: [1, 3, 3],
    9: [3, 3, 3],
    13: [1, 4, 4, 4],
    16: [4, 4, 4, 4],
    25: [5, 5, 5, 5, 5],
  };
  const w = table[n];
  if (w === undefined) throw new Error(`no wall widths for n = ${n}`);
  return w;
}

/**
 * A user-defined coterie: the grid's quorums with process ids permuted (`i ↦ 5i + 3 mod n` when
 * that is a bijection, else `i ↦ n − 1 − i`) and the assignment rotated, so that `Q_i` usually
 * does not contain `i` and nothing can lean on the grid's layout.
 */
export function customCoterie(n: number): Coterie {
  const g = grid(n).toJSON().assignment;
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  const perm = (i: number) => (gcd(5, n) === 1 ? (5 * i + 3) % n : n - 1 - i);
  const assignment = Array.from({ length: n }, (_, i) => g[(i + 1) % n]!.map(perm));
  return fromQuorums(n, assignment, 'custom-permuted-grid');
}

/** Every coterie construction available at size n: `[label, coterie]`. */
export function coteriesFor(n: number): [string, Coterie][] {
  const out: [string, Coterie][] = [
    ['majority', majority(n)],
    ['grid', grid(n)],
    ['wall', wall(wallWidths(n))],
    ['custom', customCoterie(n)],
  ];
  const q = { 7: 2, 13: 3 }[n as 7 | 13];
  if (q !== undefined) out.push(['projective-plane', projectivePlane(q)]);
  if (n === 1 || n === 3 || n === 7) out.push(['tree', tree(n)]);
  return out;
}

/** The Maekawa object's `inspect()`. */
export function inspectM(cluster: SimCluster, i: ProcessId): MaekawaSnapshot {
  return (cluster.objects[i] as unknown as { inspect(): MaekawaSnapshot }).inspect();
}

/** Mean quorum size of a coterie's assignment. */
export function meanQuorumSize(c: Coterie): number {
  let s = 0;
  for (let i = 0; i < c.n; i++) s += c.quorumOf(i).length;
  return s / c.n;
}

/**
 * The naive overtaking count: for each completed entry, the entries of other processes invoked
 * strictly later that completed strictly earlier. Returns the maximum over the run. Not bounded
 * under asynchronous delays: while a request's REQUEST messages are still in flight, any number
 * of later requests can go first (see {@link fairnessProbe} for the bounded measure).
 */
export function maxOvertakes(records: readonly InvocationRecord[]): number {
  const entries = records.filter((r) => r.op === 'entry' && !r.aborted && !Number.isNaN(r.end));
  let max = 0;
  for (const a of entries) {
    let c = 0;
    for (const b of entries) if (b.process !== a.process && b.start > a.start && b.end < a.end) c++;
    if (c > max) max = c;
  }
  return max;
}

/**
 * Fairness measure of Maekawa's algorithm: for each completed entry A, the entries of other
 * processes that were invoked after A's REQUEST had reached **every** arbiter of `Q_A` and still
 * completed before A. Bound: n − 1, one per other process. Proof: such a request B of process j
 * meets A at an arbiter k ∈ Q_j ∩ Q_A, where A is already queued or holds the lock. If B does not
 * beat A's priority, k cannot grant B before A enters (the head wins; A relinquishes only to a
 * request that beats it and stays ahead of B). If B beats A, B's LOCKED from k carries k's clock
 * ≥ A's timestamp, so j's next request has a larger timestamp than A and cannot beat it.
 *
 * For Ricart–Agrawala ("arbiters" = every other process) the same measure is 0: a request B
 * invoked after A's REQUEST reached j = B's process carries a larger timestamp, and A defers B.
 *
 * Wrap the factory with `wrap`, `attach` the cluster's network, run, then call `maxOvertakes`
 * with the workload's records (workloads without aborts).
 */
export function fairnessProbe() {
  // Maekawa's REQUEST carries its tag in `req`, Ricart–Agrawala's in `ts`
  const tagOf = (msg: Message) => (msg.req ?? msg.ts) as number;
  let net: SimNetwork | undefined;
  /** `${process}@${time}` of an entry's REQUEST multicast → its tag. */
  const tagAt = new Map<string, number>();
  /** `${process}:${tag}` → the latest delivery time of one of its REQUESTs. */
  const deliveredAt = new Map<string, number>();
  const spy = (ep: Endpoint): Endpoint => ({
    get self() {
      return ep.self;
    },
    get peers() {
      return ep.peers;
    },
    get path() {
      return ep.path;
    },
    send(to: ProcessId, msg: Message) {
      if (msg.type === 'REQUEST') tagAt.set(`${ep.self}@${net!.now}`, tagOf(msg));
      ep.send(to, msg);
    },
    onMessage(fn: (from: ProcessId, msg: Message) => void) {
      return ep.onMessage((from, msg) => {
        if (msg.type === 'REQUEST') {
          const key = `${from}:${tagOf(msg)}`;
          deliveredAt.set(key, Math.max(deliveredAt.get(key) ?? 0, net!.now));
        }
        fn(from, msg);
      });
    },
    channel: (name: string) => ep.channel(name),
  });
  return {
    wrap:
      (factory: CSFactory): CSFactory =>
      (ctx) =>
        factory({ ...ctx, endpoint: spy(ctx.endpoint) }),
    attach: (network: SimNetwork) => {
      net = network;
    },
    maxOvertakes(records: readonly InvocationRecord[]): number {
      const entries = records.filter((r) => r.op === 'entry' && !r.aborted && !Number.isNaN(r.end));
      let max = 0;
      for (const a of entries) {
        const tag = tagAt.get(`${a.process}@${a.start}`);
        const delivered = tag === undefined ? undefined : deliveredAt.get(`${a.process}:${tag}`);
        if (delivered === undefined)
          throw new Error(`no REQUEST seen for P${a.process}'s entry at ${a.start}`);
        let c = 0;
        for (const b of entries) if (b.process !== a.process && b.start > delivered && b.end < a.end) c++;
        if (c > max) max = c;
      }
      return max;
    },
  };
}

/**
 * A fake endpoint for driving one process directly: it records what the process sends (`sent`,
 * each message as `label(msg)` prefixed by `to:`) and hands it messages (`deliver`) through the
 * handler the process subscribed; `onUnsubscribe` runs when the process unsubscribes (at close).
 */
export function fakeEndpoint(
  self: ProcessId,
  peers: readonly ProcessId[],
  label: (msg: Message) => string,
  onUnsubscribe?: () => void,
): { endpoint: Endpoint; sent: string[]; deliver(from: ProcessId, msg: Message): void } {
  const sent: string[] = [];
  let handler: ((from: ProcessId, msg: Message) => void) | undefined;
  const endpoint: Endpoint = {
    self,
    peers: [...peers],
    path: '',
    send: (to, msg) => {
      sent.push(`${to}:${label(msg)}`);
    },
    onMessage: (fn) => {
      handler = fn;
      return () => {
        handler = undefined;
        onUnsubscribe?.();
      };
    },
    channel: () => {
      throw new Error('no channels here');
    },
  };
  return { endpoint, sent, deliver: (from, msg) => handler?.(from, msg) };
}
