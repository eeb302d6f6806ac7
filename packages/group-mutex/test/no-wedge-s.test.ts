/**
 * Issue 27 §3, "no message from a legitimate sender can wedge its receiver", on Maekawa_S. A
 * schema-valid REQUEST(p = 4, g, sn) from P4 whose `sn` is one P4 uses, possibly for the other
 * group. The scene: T_2(grid(9)) (every process's quorum for either group is {0, 1, 2, 3, 6}),
 * groups drawn at random, unit delays; REQUEST(p 4, g, sn) from P4 to P0 and P1 at t = 20, beside
 * P4's real requests. P0 is first(Q) and takes it (D.1); P1 is not, so its role check refuses it (a
 * ProtocolError, the one error the run may report). Before the fix (README deviation 7) the forged
 * request took every node of Q under P4's `sn`, P4's real request for the other group waited early
 * behind it at P0 (D.10), P4 ignored the GRANT, whose group was not the one it waited for, and the
 * cluster stopped: with sn 3, group 1, 53 of the first 200 seeds (1 and 3 the first). Now P4 hands
 * that GRANT back with UNLOCK(g, sn), which names the group and so never touches its real request.
 */
import { grid, groupFromCoterie } from '@critsec/coteries';
import { describe, expect, it } from 'vitest';
import { forgedSRequest } from './forged-s.js';

const system = groupFromCoterie(grid(9), 2);
const refusal = /^P1: .*REQUEST\(P4, group \d\) from P4, which is not the previous node/;

describe('Maekawa_S: a REQUEST(p 4) P4 did not send, from P4 to P0 and P1 at t = 20 (issue 27 §3)', () => {
  it('group 1, sn 3, seeds 1–3 (1 and 3 locked up before the fix): every process completes, never two groups InCS', async () => {
    for (const seed of [1, 2, 3]) {
      const { r, errors } = await forgedSRequest(system, seed, 1, 3);
      expect(r.violation).toBeNull();
      expect(r.stuck).toEqual([]);
      expect(r.ok).toBe(true);
      expect(errors).toEqual([expect.stringMatching(refusal)]);
    }
  });

  it('seeds 1–100, groups 0 and 1, sn 2 and 3: 0 lock-ups, 0 violations', async () => {
    const bad: string[] = [];
    for (const sn of [2, 3]) {
      for (const g of [0, 1]) {
        for (let seed = 1; seed <= 100; seed++) {
          const { r, errors } = await forgedSRequest(system, seed, g, sn);
          if (!r.ok || errors.some((e) => !refusal.test(e)))
            bad.push(`sn ${sn}, g ${g}, seed ${seed}: ${r.failure ?? r.violation?.message ?? errors[0]}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });
});
