import {
  type GroupQuorumSystem,
  grid,
  groupFromCoterie,
  projectivePlane,
  surficial,
} from '@critsec/coteries';
import type { SimCluster } from '@critsec/harness';
import type { Rng } from '@critsec/transport-sim';
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
