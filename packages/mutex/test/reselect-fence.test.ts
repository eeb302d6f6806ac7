/**
 * Quorum reselection together with fencing tokens and a ttl (issue 28; S5 of
 * `maekawa-reselect.ts`, F5–F7 of `maekawa-fence.ts`), short version (the long one:
 * `tenure.long.test.ts`, 10⁴ seeds): the token is confirmed with the quorum asked and a holder
 * renews with the quorum it entered with; under crash-stop (holders InCS and waiters holding
 * locks included), pauses past the ttl and a member cut off and healed, a fencing store loses no
 * update and no live process is stuck — and without the ttl the same faults leave processes stuck.
 */
import { type CSState, hasTenure, mutexSpec, type Suspicions } from '@critsec/core';
import { collectReached } from '@critsec/core/kit';
import { majority, tree } from '@critsec/coteries';
import { createCluster } from '@critsec/harness';
import { SimNetwork } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { maekawa, maekawaDescriptor, type MaekawaSnapshot } from '../src/index.js';
import { reselectFenceBatch } from './reselect-fence-run.js';

const SEEDS = 30;
const grantOf = (cs: unknown) => (cs as { inspect(): MaekawaSnapshot }).inspect().arbiter;

describe('quorum reselection with fencing and a ttl', () => {
  it('S1 + F5: an entry on a quorum avoiding a suspect confirms its token with that quorum (not Q_i)', async () => {
    const coterie = majority(5);
    const q0 = coterie.quorumOf(0);
    const suspect = q0.find((p) => p !== 0)!;
    const suspicions: Suspicions = { suspected: () => new Set([suspect]), onChange: () => () => {} };
    const net = new SimNetwork({ n: 5, seed: 1 });
    const initial: CSState[] = Array(5).fill('OutCS');
    const factory = maekawa({ coterie, reselect: true, fencing: true });
    const objects = net
      .endpoints()
      .map((endpoint, id) => factory({ id, n: 5, endpoint, initial, suspicions }));
    void objects[0]!.entry();
    await net.run();
    expect(objects[0]!.state).toBe('InCS');
    const granted = objects.flatMap((o, p) => (grantOf(o).grantedTo === 0 ? [p] : []));
    expect(granted).not.toContain(suspect);
    expect(granted).toHaveLength(3);
    const cs = objects[0]!;
    expect(hasTenure(cs) && cs.tenure()?.token).toBe(1);
    await Promise.all(objects.map((o) => o.close()));
  });

  it('S2 + F6–F7: a retry after a crash confirms with the new quorum, and the holder keeps its tenure alive past several ttls by renewing with it', async () => {
    const coterie = majority(5);
    const reached = collectReached();
    const c = createCluster({
      factory: maekawa({ coterie, reselect: true, ttl: 6 }),
      spec: mutexSpec(5),
      suspectAfter: 2,
    });
    const dead = coterie.quorumOf(0).find((p) => p !== 0)!;
    c.net.crash(dead); // P0's first attempt asks it: S2 retries once it is suspected
    const cs = c.objects[0]!;
    const entered = cs.entry();
    let remaining: number[] = [];
    void entered.then(() => {
      const t = hasTenure(cs) ? cs.tenure() : undefined;
      const probe = (k: number) => {
        remaining.push(t?.remaining() ?? 0);
        if (k > 0) c.clocks.clock(0).setTimer(5, () => probe(k - 1));
        else void cs.exit();
      };
      probe(4); // 20 time units InCS: over three ttls
    });
    await c.net.run({ until: 200 });
    reached.stop();
    expect(reached.counts.get('maekawa:reselected')).toBeGreaterThan(0);
    expect(remaining.length).toBe(5);
    expect(Math.min(...remaining)).toBeGreaterThan(0); // renewals confirmed by the quorum asked
    expect(c.errors).toEqual([]);
    remaining = [];
    await c.close();
  });

  for (const coterie of [majority(5), tree(7)]) {
    it(`${coterie.description}: ${SEEDS} seeds of crash-stop, pauses past the ttl and a member cut off — 0 lost updates, 0 fencing violations, 0 stuck`, async () => {
      const t = await reselectFenceBatch(coterie, 1, SEEDS);
      expect({
        lost: t.lost,
        violations: t.violations,
        stuck: t.stuck,
        errors: t.errors,
        bad: t.bad,
      }).toEqual({
        lost: 0,
        violations: 0,
        stuck: 0,
        errors: 0,
        bad: [],
      });
      expect(t.crashedInCS + t.crashedWaiting).toBeGreaterThan(0);
      expect(t.expired).toBeGreaterThan(0);
      expect(t.cuts).toBe(SEEDS);
      expect(t.entriesDuringCuts).toBeGreaterThan(0);
    });
  }

  it('without the ttl (fencing alone) the same faults leave live processes stuck: a dead holder keeps its locks', async () => {
    const t = await reselectFenceBatch(majority(5), 1, SEEDS, { ttl: undefined });
    expect(t.stuck).toBeGreaterThan(0);
    expect({ lost: t.lost, violations: t.violations }).toEqual({ lost: 0, violations: 0 });
  });

  it('the descriptor builds reselect=on with fencing, ttl and driftMargin together', () => {
    const ctx = { weigh: () => {}, readJson: () => null, isFile: () => false };
    const built = maekawaDescriptor.build(
      { coterie: 'majority', reselect: 'on', fencing: 'true', ttl: 3000, driftMargin: 300 },
      5,
      ctx as never,
    );
    expect(built.options).toMatchObject({ reselect: 'on', fencing: 'true', ttl: 3000, driftMargin: 300 });
  });
});
