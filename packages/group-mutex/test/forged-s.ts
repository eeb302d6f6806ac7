/** The issue 27 §3 scene for Maekawa_S, shared by `no-wedge-s.test.ts` and its long variant. */
import { groupSpec } from '@critsec/core';
import type { GroupQuorumSystem } from '@critsec/coteries';
import { createCluster, runWorkload, type WorkloadResult } from '@critsec/harness';
import type { DelayModel } from '@critsec/transport-sim';
import { groupMutex } from '../src/index.js';
import { anyGroup } from './helpers.js';

/**
 * Maekawa_S over `system`, unit delays, three rounds per process with random groups;
 * REQUEST(p 4, g, sn) sent by P4 to P0 and P1 at time `at` (20 unless told), beside P4's real ones.
 * `errors` are the runtime errors reported, as `P<i>: message`.
 */
export async function forgedSRequest(
  system: GroupQuorumSystem,
  seed: number,
  g: number,
  sn: number,
  at = 20,
  delay?: DelayModel,
): Promise<{ r: WorkloadResult; errors: string[] }> {
  const cluster = createCluster({
    factory: groupMutex({ system, variant: 'S' }),
    spec: groupSpec(system.m, system.n),
    seed,
    delay,
  });
  cluster.net.schedule(at, () => {
    for (const to of [0, 1]) cluster.net.endpoint(4).send(to, { type: 'REQUEST', p: 4, g, sn });
  });
  const r = await runWorkload(cluster, { rounds: 3, request: anyGroup(system.m) });
  await cluster.close();
  return { r, errors: cluster.errors.map((e) => `P${e.process}: ${e.error.message}`) };
}
