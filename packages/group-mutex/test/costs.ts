/**
 * Message costs under contention, measured as the README's restated bounds are stated:
 * Maekawa_M per exit+entry pair under the causal attribution, Maekawa_S per request by its tag
 * (every Maekawa_S message names its request: REQUEST(p, ·, sn), GRANT(sn) to p, UNLOCK(sn) from p).
 */
import { groupSpec } from '@critsec/core';
import { collectReached } from '@critsec/core/kit';
import type { GroupQuorumSystem } from '@critsec/coteries';
import { createCluster, runWorkload, type WorkloadResult } from '@critsec/harness';
import { drainToRest } from '@critsec/testing';
import { exponentialDelay, uniformDelay } from '@critsec/transport-sim';
import { groupMutex } from '../src/index.js';
import { anyGroup, quorumSize } from './helpers.js';

/** The contended workload: 3 rounds, hold 0.5, a random group per entry. */
const workload = (think: number) => ({ rounds: 3, think, hold: 0.5 });

/** Exponential(1) delays for an odd seed, uniform(0.1, 2) for an even one. */
const delayOf = (seed: number) => (seed % 2 === 1 ? exponentialDelay(1) : uniformDelay(0.1, 2));

/** One Maekawa_M run with causal attribution; `maxLocks` undefined is the default. */
export async function runM(
  system: GroupQuorumSystem,
  seed: number,
  think: number,
  maxLocks?: number,
): Promise<WorkloadResult> {
  const options = { system, variant: 'M', ...(maxLocks === undefined ? {} : { maxLocks }) } as const;
  const cluster = createCluster({
    factory: groupMutex(options),
    spec: groupSpec(system.m, system.n),
    seed,
    delay: delayOf(seed),
    attribution: true,
  });
  return runWorkload(cluster, { ...workload(think), request: anyGroup(system.m) });
}

/** One request of Maekawa_S and the messages naming it. */
export interface SRequest {
  readonly p: number;
  readonly sn: number;
  /** |Q| of the quorum it acquires. */
  q: number;
  /** Messages naming it. */
  messages: number;
}

/** One Maekawa_S run (to rest): its requests, the early requests stored (E.10–E.11), the result. */
export async function runS(
  system: GroupQuorumSystem,
  seed: number,
  think: number,
): Promise<{ result: WorkloadResult; requests: SRequest[]; early: number; sent: number }> {
  const sizeOf = quorumSize(system);
  const cluster = createCluster({
    factory: groupMutex({ system, variant: 'S' }),
    spec: groupSpec(system.m, system.n),
    seed,
    delay: delayOf(seed),
  });
  const requests = new Map<string, SRequest>();
  const of = (p: number, sn: number): SRequest => {
    const key = `${p}:${sn}`;
    let r = requests.get(key);
    if (r === undefined) {
      r = { p, sn, q: 0, messages: 0 };
      requests.set(key, r);
    }
    return r;
  };
  let sent = 0;
  const off = cluster.net.onSend(({ from, to, msg }) => {
    sent++;
    const m = msg as { type: string; p?: number; g?: number; sn: number };
    const r = m.type === 'REQUEST' ? of(m.p!, m.sn) : m.type === 'GRANT' ? of(to, m.sn) : of(from, m.sn);
    if (m.type === 'REQUEST' && from === m.p) r.q = sizeOf(m.p, m.g!); // the first hop
    r.messages++;
  });
  const reached = collectReached();
  const result = await runWorkload(cluster, { ...workload(think), request: anyGroup(system.m) });
  await drainToRest(cluster);
  off();
  const early = reached.counts.get('group-mutex-s:early-request') ?? 0;
  reached.stop();
  return { result, requests: [...requests.values()], early, sent };
}
