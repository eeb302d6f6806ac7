import {
  type GroupQuorumSystem,
  grid,
  groupFromCoterie,
  projectivePlane,
  surficial,
} from '@critsec/coteries';
import type { SimCluster } from '@critsec/testing';
import type { Rng, SimNetwork } from '@critsec/transport-sim';
import { type MaekawaMSnapshot, type MaekawaSSnapshot, subgroupAssignment } from '../src/index.js';

/** The systems of the matrix: `[label, system]`. */
export function systems(): [string, GroupQuorumSystem][] {
  return [
    ['surficial(4,2)', surficial(4, 2)], // k = 2: two cartels of 2 disjoint quora of size 2
    ['surficial(9,2)', surficial(9, 2)], // k = 3
    ['surficial(3,3)', surficial(3, 3)], // k = 1
    ['surficial(12,3)', surficial(12, 3)], // k = 2, |Q| = 4
    ['surficial(6,4)', surficial(6, 4)], // k = 1, |Q| = 3
    ['T_2(grid(9))', groupFromCoterie(grid(9), 2)],
    ['T_3(projective-plane(7))', groupFromCoterie(projectivePlane(2), 3)],
  ];
}

/** Uniform random group. */
export const anyGroup =
  (m: number) =>
  (rng: Rng): number =>
    rng.int(m);

export function inspectM(c: SimCluster<number>, i: number): MaekawaMSnapshot {
  return (c.objects[i] as unknown as { inspect(): MaekawaMSnapshot }).inspect();
}
export function inspectS(c: SimCluster<number>, i: number): MaekawaSSnapshot {
  return (c.objects[i] as unknown as { inspect(): MaekawaSSnapshot }).inspect();
}

// ------------------------------------------------------------------ controlled-mode scripting

/** Pending events of a controlled network, as `from→to TYPE` strings. */
export function pendingList(net: SimNetwork): string[] {
  return net
    .pending()
    .map((e) => (e.kind === 'message' ? `${e.from}→${e.to} ${e.msg.type}` : `timer ${e.label}`));
}

/** Every queued message of a controlled network (all of each link, FIFO order), as `from→to TYPE`. */
export function queuedList(net: SimNetwork): string[] {
  return net.snapshot().links.flatMap((l) => l.queued.map((m) => `${l.from}→${l.to} ${m.type}`));
}

/** Delivers the first pending message `from → to` of `type`; throws if there is none. */
export async function deliver(net: SimNetwork, from: number, to: number, type: string): Promise<void> {
  const i = net
    .pending()
    .findIndex((e) => e.kind === 'message' && e.from === from && e.to === to && e.msg.type === type);
  if (i < 0) throw new Error(`no pending ${from}→${to} ${type}; pending: ${pendingList(net).join(', ')}`);
  await net.deliver(i);
}

/** Delivers pending events (always the first) until none is left. */
export async function deliverAll(net: SimNetwork, max = 100_000): Promise<number> {
  let k = 0;
  while (net.pending().length > 0) {
    if (++k > max) throw new Error(`still busy after ${max} events`);
    await net.deliver(0);
  }
  return k;
}

/** `entry(g)` on P`i` with the monitor told the group (the workload driver does this itself). */
export function enter(
  c: SimCluster<number>,
  i: number,
  g: number,
  opts?: { signal?: AbortSignal },
): Promise<void> {
  c.monitor.setRequest(i, g);
  return c.objects[i]!.entry(g, opts);
}

/** |Q| of the quorum P_i acquires for group g under the subgroup assignment (the default). */
export function quorumSize(system: GroupQuorumSystem): (i: number, g: number) => number {
  const { assignment } = subgroupAssignment(system);
  return (i, g) => system.cartels[g]![assignment[i]![g]!]!.length;
}

/** Drives a cluster to rest after a workload: drains the network and exits every process InCS. */
export async function drainToRest(cluster: SimCluster<number>): Promise<void> {
  for (let round = 0; round < 1000; round++) {
    await cluster.net.run();
    let moved = false;
    for (const cs of cluster.objects) {
      if (cs.state === 'InCS' && cs.pending === null) {
        moved = true;
        await cs.exit();
      }
    }
    if (!moved && cluster.net.inFlight === 0) return;
  }
  throw new Error('cluster did not come to rest');
}

/**
 * The compliance matrix: every system with the subgroup assignment (the default), plus three with
 * the system's own assignment (`quorumOf(i, g)`: different quorums per process, max[g] = n).
 */
export function configs(): [string, { system: GroupQuorumSystem; assignment: 'subgroups' | 'system' }][] {
  const out: [string, { system: GroupQuorumSystem; assignment: 'subgroups' | 'system' }][] = systems().map(
    ([label, system]) => [label, { system, assignment: 'subgroups' }],
  );
  for (const k of [3, 5, 6]) {
    const [label, system] = systems()[k]!;
    out.push([`${label}, own assignment`, { system, assignment: 'system' }]);
  }
  return out;
}
