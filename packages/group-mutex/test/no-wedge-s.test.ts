/**
 * Issue 27 §3, "no message from a legitimate sender can wedge its receiver", on Maekawa_S: a
 * schema-valid REQUEST(p = 4, g, sn) from P4 whose `sn` tags no request P4 made for group g must
 * leave the cluster safe and live. The scene: T_2(grid(9)) (every process's quorum for either
 * group is {0, 1, 2, 3, 6}), groups drawn at random, unit delays; REQUEST(p 4, g, sn) from P4 to P0
 * and P1 at t = 20, beside P4's real requests. P0 is first(Q) and takes it (D.1); P1 is not, so
 * its role check refuses it (a ProtocolError, the one error the run may report). Before the
 * requester's hand-back rule (README deviation 7), with sn = 2 or 3 (a `sn` P4 uses in its three
 * rounds) 25 and 53 of the first 200 seeds locked up (group 1, sn 3: seeds 1 and 3 the first): the
 * forged request took every node of Q under P4's `sn`, P4's real request for the other group was
 * early behind it at P0 (D.10), and P4 ignored the GRANT because its group was not the one it
 * waited for — or, when it had already left, because it named its last `sn`. The long suite sweeps
 * more tags, groups, seeds and surficial(9,2) (`no-wedge-s.long.test.ts`).
 */
import { collectReached } from '@critsec/core/kit';
import { grid, groupFromCoterie } from '@critsec/coteries';
import { describe, expect, it } from 'vitest';
import { forgedSRequest } from './forged-s.js';

const system = groupFromCoterie(grid(9), 2);

describe('Maekawa_S: a REQUEST(p 4) P4 did not send, from P4 to P0 and P1 at t = 20 (issue 27 §3)', () => {
  // group 1, sn 3: seeds 1 and 3 locked up before; group 0, sn 2: seed 7; seed 2 finished
  for (const [g, sn, seed] of [
    [1, 3, 1],
    [1, 3, 2],
    [1, 3, 3],
    [0, 2, 7],
  ] as const) {
    it(`group ${g}, sn ${sn}, seed ${seed}: never two groups InCS, every process completes its rounds`, async () => {
      const reached = collectReached();
      const { r, errors } = await forgedSRequest(system, seed, g, sn);
      reached.stop();
      expect(r.violation).toBeNull();
      expect(r.stuck).toEqual([]);
      expect(r.ok).toBe(true);
      expect(errors).toEqual([
        expect.stringMatching(/^P1: .*REQUEST\(P4, group \d\) from P4, which is not the previous node/),
      ]);
    });
  }

  it('group 1, sn 3, seed 1: the forged GRANT is handed back by P4', async () => {
    const reached = collectReached();
    await forgedSRequest(system, 1, 1, 3);
    reached.stop();
    expect(reached.counts.get('group-mutex-s:foreign-grant-returned') ?? 0).toBeGreaterThan(0);
  });

  // before: sn 2 locked up on 25 (group 0) and 25 (group 1) of 200 seeds, sn 3 on 47 and 53
  it('seeds 1–200 with sn 2 and 3 for group 0 and 1: 0 lock-ups, 0 violations', async () => {
    const bad: string[] = [];
    for (const sn of [2, 3]) {
      for (const g of [0, 1]) {
        for (let seed = 1; seed <= 200; seed++) {
          const { r } = await forgedSRequest(system, seed, g, sn);
          if (!r.ok) bad.push(`sn ${sn}, group ${g}, seed ${seed}: ${r.failure}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });
});
