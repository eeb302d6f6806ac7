/**
 * Issue 27 §3, "no message from a legitimate sender can wedge its receiver": a `cancel` of P4's
 * current request in the name of an arbiter whose `OK` P4 holds, while P4 waits. P4 answers it
 * with `cancelled` and gives the OK back — but the arbiter never sent a `cancel`: its entry is in
 * status ok. Before, it ignored that `cancelled` as stale (`h-out-of-k:stale-ignored`), never sent
 * its OK again, and P4 waited for it for ever while holding other arbiters' units. Now a
 * `cancelled` for an entry in status ok keeps the units taken and sends the `OK` again
 * (`src/arbiter.ts`, `h-out-of-k:ok-again`; never on an honest run). Scene: n = 5, k = 2
 * (`uniformHKArbiter(5, 2)`), h drawn in 1..2, unit delays, three rounds; from t = 20, every half
 * time unit until it happens, the first instant P4 waits holding some arbiter r's OK: `cancel(seq)`
 * from r to P4 (sent in 196 of seeds 1–200). Before: 165 of them failed, every one stuck (1, 2 and
 * 3 among them).
 */
import { hOutOfKSpec } from '@critsec/core';
import { collectReached } from '@critsec/core/kit';
import { uniformHKArbiter } from '@critsec/coteries';
import { createCluster, runWorkload, type WorkloadResult } from '@critsec/harness';
import { describe, expect, it } from 'vitest';
import { hOutOfK, hOutOfKRequest } from '../src/index.js';
import { inspectH } from './helpers.js';

const SENT = 196;

async function forgedCancel(seed: number): Promise<{ r: WorkloadResult; errors: string[]; sent: boolean }> {
  const k = 2;
  const cluster = createCluster({
    factory: hOutOfK({ k, arbiter: uniformHKArbiter(5, k) }),
    spec: hOutOfKSpec(k, 5),
    seed,
  });
  let sent = false;
  const attempt = (left: number): void => {
    const { requester } = inspectH(cluster, 4);
    if (requester.waiting && requester.K.length > 0) {
      sent = true;
      cluster.net.endpoint(requester.K[0]!).send(4, { type: 'cancel', seq: requester.request, ts: 1 });
    } else if (left > 0) cluster.net.schedule(0.5, () => attempt(left - 1));
  };
  cluster.net.schedule(20, () => attempt(200));
  const r = await runWorkload(cluster, { rounds: 3, request: hOutOfKRequest(k, 'random') });
  await cluster.close();
  return { r, errors: cluster.errors.map((e) => `P${e.process}: ${e.error.message}`), sent };
}

describe("a cancel of P4's current request from an arbiter whose OK it holds, while it waits (issue 27 §3)", () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: Σ units ≤ k throughout, every process completes its rounds, the OK goes again`, async () => {
      const reached = collectReached();
      const { r, errors, sent } = await forgedCancel(seed);
      reached.stop();
      expect(sent).toBe(true);
      expect(r.violation).toBeNull();
      expect(r.stuck).toEqual([]);
      expect(r.ok).toBe(true);
      expect(errors).toEqual([]);
      expect(reached.counts.get('h-out-of-k:ok-again') ?? 0).toBeGreaterThan(0);
    });
  }

  it('seeds 1–200: 0 lock-ups, 0 violations (the cancel was sent in 196 of them)', async () => {
    const bad: string[] = [];
    let sent = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const x = await forgedCancel(seed);
      if (x.sent) sent++;
      if (!x.r.ok || x.errors.length > 0) bad.push(`seed ${seed}: ${x.r.failure ?? x.errors[0]}`);
    }
    expect(bad).toEqual([]);
    expect(sent).toBe(SENT);
  });
});
