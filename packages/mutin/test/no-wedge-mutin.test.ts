/**
 * Issue 27 §3 on MUTIN's own messages: a schema-valid Query, Acquire or Release in the name of a
 * process of R_i that does not match what it did (a reqCnt it never issued or an old one, an
 * Acquire while it is not leaving, a Release while it is InCS — what a process restarted without
 * its state sends) must leave the cluster safe (at least l InCS) and live. The scene:
 * majority(5), unit delays, the message from P4 to P0 and P1 (P4 ∈ R_0, R_1) at t = 20 and 40,
 * seeds 1–200, l = 4 (= n − 1, the l of the k-mutex for k = 1; with l = 2 no seed failed before).
 * Before the rules of `src/response-again.ts` (README, "Issue 27 §3"), 1,000 runs per instant:
 *
 * | forged message | t = 20 | t = 40 |
 * | --- | --- | --- |
 * | Query, reqCnt 1000000 | 0 | 5 stuck (36, 63, 93, 194, 197) |
 * | Query, reqCnt 0 or 1 | 0 | 5 stuck (the same seeds) |
 * | Acquire | 34 stuck (2, 13, 19, 34, 35 first) | 138 stuck |
 * | Release | 0 | 0 |
 *
 * (a Query replaced the entry of the leaver holding `mx` in the member's single responseAgainTo;
 * an Acquire made P0 and P1 forget that P4 was InCS). The long suite sweeps more instants, delays
 * and seeds (`no-wedge-mutin.long.test.ts`).
 */
import { type CSState, globalSpec } from '@critsec/core';
import { collectReached } from '@critsec/core/kit';
import { majority } from '@critsec/coteries';
import { createCluster, runWorkload, type WorkloadResult } from '@critsec/harness';
import { describe, expect, it } from 'vitest';
import { type MutinCS, type MutinProtocolMessage, mutin } from '../src/index.js';

const FORGED: readonly MutinProtocolMessage[] = [
  { type: 'Query', reqCnt: 1_000_000 },
  { type: 'Query', reqCnt: 0 },
  { type: 'Query', reqCnt: 1 },
  { type: 'Acquire' },
  { type: 'Release' },
];

/** The scene for one seed: `msg` from P4 to P0 and P1 at `t`. */
async function forged(msg: MutinProtocolMessage, t: number, seed: number, l = 4): Promise<WorkloadResult> {
  const cluster = createCluster({
    factory: mutin({ l, coterie: majority(5) }),
    spec: globalSpec(l, 5, 5),
    seed,
  });
  cluster.net.schedule(t, () => {
    for (const to of [0, 1]) cluster.net.endpoint(4).send(to, msg);
  });
  const r = await runWorkload(cluster, { rounds: 3 });
  await cluster.close();
  const errors = cluster.errors.map((e) => `P${e.process}: ${e.error.message}`);
  return errors.length === 0 ? r : { ...r, ok: false, failure: errors[0]! };
}

describe('MUTIN: a Query, Acquire or Release P4 did not send, to P0 and P1 (issue 27 §3)', () => {
  it('Acquire at t = 20, seed 2 (the first that locked up): ignored, the cluster completes', async () => {
    const reached = collectReached();
    const r = await forged({ type: 'Acquire' }, 20, 2);
    reached.stop();
    expect(r.violation).toBeNull();
    expect(r.stuck).toEqual([]);
    expect(r.ok).toBe(true);
    expect(reached.counts.get('mutin:unasked-acquire-ignored')).toBe(2);
  });

  it('Query reqCnt 1000000 at t = 40, seed 36 (the first that locked up): withdrawn, the cluster completes', async () => {
    const reached = collectReached();
    const r = await forged({ type: 'Query', reqCnt: 1_000_000 }, 40, 36);
    reached.stop();
    expect(r.ok).toBe(true);
    expect(reached.counts.get('mutin:withdrawn')).toBeGreaterThan(0);
  });

  // Seeds 1–64 hold the first lock-ups of the table above (Acquire at t = 20: 2, 13, 19, 34, 35;
  // Query at t = 40: 36, 63); the long suite runs seeds 1–2,000 of every forged message.
  it('every forged message × t = 20, 40 × seeds 1–64: 0 lock-ups, 0 violations', async () => {
    const bad: string[] = [];
    for (const msg of FORGED) {
      for (const t of [20, 40]) {
        for (let seed = 1; seed <= 64; seed++) {
          const r = await forged(msg, t, seed);
          if (!r.ok) bad.push(`${JSON.stringify(msg)}, t ${t}, seed ${seed}: ${r.failure}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });
});

describe('the requester puts right what a message in its name did at a quorum member', () => {
  // majority(5), l = 4, P3 OutCS: P4's Exit() waits (it needs all five InCS) until P3 enters
  const initial: CSState[] = ['InCS', 'InCS', 'InCS', 'OutCS', 'InCS'];
  const make = () =>
    createCluster({ factory: mutin({ l: 4, coterie: majority(5) }), spec: globalSpec(4, 5, 5), initial });

  it('a Query in its name replacing its entry at P0 while it waits: it asks P0 again', async () => {
    const reached = collectReached();
    const c = make();
    const [p0, p4] = [c.objects[0] as MutinCS, c.objects[4] as MutinCS];
    const exit = p4.exit();
    await c.net.run();
    expect(p0.responseAgain.snapshot()).toEqual([[4, 1, false]]);
    c.net.endpoint(4).send(0, { type: 'Query', reqCnt: 1_000_000 });
    await c.net.run();
    reached.stop();
    // before: P0's Response2s went to reqCnt 1000000, which P4 drops
    expect(reached.counts.get('mutin:query-renewed')).toBe(1);
    expect(p0.responseAgain.snapshot()).toEqual([[4, 1, false]]);
    await c.objects[3]!.entry();
    await c.net.run();
    await exit;
    expect(p4.state).toBe('OutCS');
    await c.close();
  });

  it('an Acquire in its name taken by P0 while it waits: it tells P0 again that it is InCS and asks again', async () => {
    const reached = collectReached();
    const c = make();
    const [p0, p4] = [c.objects[0] as MutinCS, c.objects[4] as MutinCS];
    const exit = p4.exit();
    await c.net.run();
    c.net.endpoint(4).send(0, { type: 'Acquire' });
    await c.net.run();
    reached.stop();
    expect(reached.counts.get('mutin:unasked-ack')).toBe(1);
    // before: P0 kept P4 out of procsInCS while P4 was InCS, and forgot its Query
    expect(p0.procsInCS.has(4)).toBe(true);
    expect(p0.responseAgain.snapshot()).toEqual([[4, 1, false]]);
    expect(p4.ackFrom.size).toBe(0);
    await c.objects[3]!.entry();
    await c.net.run();
    await exit;
    expect(p0.procsInCS.has(4)).toBe(false); // its real Acquire was taken
    await c.close();
  });
});
