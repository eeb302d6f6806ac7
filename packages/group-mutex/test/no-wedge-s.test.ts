/**
 * Issue 27 §3, "no message from a legitimate sender can wedge its receiver", on Maekawa_S — the
 * lock-up reproduced and pinned, NOT fixed (README deviation 7 says why the obvious fix is unsafe).
 * A schema-valid REQUEST(p = 4, g, sn) from P4 whose `sn` is one P4 uses for the other group. The
 * scene: T_2(grid(9)) (every process's quorum for either group is {0, 1, 2, 3, 6}), groups drawn at
 * random, unit delays; REQUEST(p 4, g, sn) from P4 to P0 and P1 at t = 20, beside P4's real
 * requests. P0 is first(Q) and takes it (D.1); P1 is not, so its role check refuses it (a
 * ProtocolError, the one error the run may report). With sn = 3 (a `sn` P4 uses in its three rounds)
 * 53 of the first 200 seeds lock up (group 1; 1 and 3 the first): the forged request takes every
 * node of Q under P4's `sn`, P4's real request for the other group waits early behind it at P0
 * (D.10), and P4 ignores the GRANT, whose group is not the one it waits for. Safety holds.
 */
import { grid, groupFromCoterie } from '@critsec/coteries';
import { describe, expect, it } from 'vitest';
import { forgedSRequest } from './forged-s.js';

const system = groupFromCoterie(grid(9), 2);

describe('Maekawa_S: a REQUEST(p 4) P4 did not send, from P4 to P0 and P1 at t = 20 (issue 27 §3)', () => {
  it('group 1, sn 3, seed 2: the cluster finishes; seeds 1 and 3: it locks up, never two groups InCS', async () => {
    for (const [seed, finishes] of [
      [1, false],
      [2, true],
      [3, false],
    ] as const) {
      const { r, errors } = await forgedSRequest(system, seed, 1, 3);
      expect(r.violation).toBeNull();
      expect(r.ok).toBe(finishes);
      expect(errors).toEqual([
        expect.stringMatching(/^P1: .*REQUEST\(P4, group \d\) from P4, which is not the previous node/),
      ]);
    }
  });

  it('seeds 1–200, group 1: sn 3 locks up 53 runs, sn 1000000 none; never two groups InCS', async () => {
    const stuck = new Map<number, number>();
    for (const sn of [3, 1_000_000]) {
      for (let seed = 1; seed <= 200; seed++) {
        const { r } = await forgedSRequest(system, seed, 1, sn);
        expect(r.violation).toBeNull();
        if (!r.ok) stuck.set(sn, (stuck.get(sn) ?? 0) + 1);
      }
    }
    expect([...stuck]).toEqual([[3, 53]]);
  });
});
