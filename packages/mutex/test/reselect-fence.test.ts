/**
 * Quorum reselection together with fencing tokens and a ttl (issue 28; S5 of
 * `maekawa-reselect.ts`, F5–F7 of `maekawa-fence.ts`), short version (the long one:
 * `tenure.long.test.ts`, 10⁴ seeds): the token is confirmed with the quorum asked and a holder
 * renews with the quorum it entered with; under crash-stop (holders InCS and waiters holding
 * locks included), pauses past the ttl and a member cut off and healed, a fencing store loses no
 * update and no live process is stuck — and without the ttl the same faults leave processes stuck.
 */
import { type CSState, hasTenure, mutexSpec, type ProtocolClock, type Suspicions } from '@critsec/core';
import { collectReached } from '@critsec/core/kit';
import { majority, tree } from '@critsec/coteries';
import { createCluster } from '@critsec/harness';
import { SimNetwork } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { maekawa, maekawaDescriptor, type MaekawaSnapshot } from '../src/index.js';
import { fakeEndpoint } from './helpers.js';
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

  it('S2 + F5–F6, message by message: the retry is confirmed with the new quorum only, and an EXPIRED or CONFIRMED of the old attempt does not count for it', () => {
    const coterie = majority(5);
    const q0 = coterie.quorumOf(0);
    const suspect = q0.find((p) => p !== 0)!;
    const { endpoint, sent, deliver } = fakeEndpoint(0, [0, 1, 2, 3, 4], (m) => {
      const extra =
        m.type === 'CONFIRM' ? `,${String(m.token)}` : m.type === 'FENCE_LOCKED' ? `,${String(m.hs)}` : '';
      return `${m.type}(${String(m.req)}${extra})`;
    });
    let suspected: ReadonlySet<number> = new Set();
    const listeners = new Set<() => void>();
    const suspicions: Suspicions = {
      suspected: () => suspected,
      onChange: (fn) => {
        listeners.add(fn);
        return () => void listeners.delete(fn);
      },
    };
    const clock: ProtocolClock = { now: () => 0, setTimer: () => () => {} };
    const initial: CSState[] = Array(5).fill('OutCS');
    const cs = maekawa({ coterie, reselect: true, ttl: 30 })({
      id: 0,
      n: 5,
      endpoint,
      initial,
      suspicions,
      clock,
    });
    void cs.entry();
    const first = Number(/REQUEST\((\d+)\)/.exec(sent[0]!)![1]);
    const other = q0.find((p) => p !== 0 && p !== suspect)!;
    deliver(other, { type: 'FENCE_LOCKED', req: first, ts: 1, hs: 50 }); // a lock of the first attempt
    sent.length = 0;
    suspected = new Set([suspect]);
    for (const fn of listeners) fn(); // S2: withdraw the attempt, ask a quorum avoiding the suspect
    const retry = first + 1;
    const asked = sent.filter((m) => m.endsWith(`:REQUEST(${retry})`)).map((m) => Number(m.split(':')[0]));
    expect(sent.filter((m) => m.includes(`RELEASE(${first})`)).length).toBe(q0.length);
    expect(asked).not.toContain(suspect);
    expect(asked).toHaveLength(3);
    sent.length = 0;
    // the old attempt's arbiter reclaimed its grant and confirmed an old round: stale, ignored
    deliver(other, { type: 'EXPIRED', req: first, ts: 2 });
    deliver(other, { type: 'CONFIRMED', req: first, ts: 2, round: 1 });
    expect(sent).toEqual([]);
    // the new quorum grants with hs 5, 9, 5: CONFIRM(10) goes to exactly that quorum (F5)
    for (const [k, a] of asked.entries())
      deliver(a, { type: 'FENCE_LOCKED', req: retry, ts: 3, hs: [5, 9, 5][k]! });
    expect(sent.sort()).toEqual(asked.map((a) => `${a}:CONFIRM(${retry},10)`).sort());
    for (const a of asked) deliver(a, { type: 'CONFIRMED', req: retry, ts: 4, round: 1 });
    expect(cs.state).toBe('InCS');
    expect(hasTenure(cs) && cs.tenure()?.token).toBe(10);
    void cs.close();
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
