/**
 * Quorum reselection (issue 28 §4) in the simulator, short version (the long one:
 * `reselect.long.test.ts`): majority(5) and tree(7) with one member crash-stopped — every live
 * process completes its rounds, 0 violations; a member cut off twice — the majority side keeps
 * entering during the cuts; wrong suspicions of live members — safe and live. And the option off:
 * with the same crash, Maekawa without reselection leaves the processes whose quorum holds the
 * dead member stuck (what the option changes).
 */
import { collectReached } from '@critsec/core/kit';
import { majority, tree } from '@critsec/coteries';
import { createCluster, runWorkload } from '@critsec/harness';
import { describe, expect, it } from 'vitest';
import {
  ConfigurationError,
  type CSState,
  type DurableCSObject,
  mutexSpec,
  type Suspicions,
} from '@critsec/core';
import { SimNetwork } from '@critsec/transport-sim';
import { maekawa, maekawaDescriptor, type MaekawaSnapshot } from '../src/index.js';
import { type ReselectScenario, runReselect } from './reselect-run.js';

const SEEDS = 60;
const ROUNDS = 4;

describe('Maekawa with quorum reselection (simulator)', () => {
  for (const coterie of [majority(5), tree(7)]) {
    for (const scenario of ['crash', 'partition', 'wrong'] as ReselectScenario[]) {
      it(`${coterie.description}, ${scenario}: ${SEEDS} seeds, 0 violations, 0 live processes stuck`, async () => {
        const reached = collectReached();
        let entries = 0;
        let faulted = 0;
        const during: number[] = [];
        for (let seed = 1; seed <= SEEDS; seed++) {
          const r = await runReselect(coterie, scenario, seed, ROUNDS);
          expect(r.failure).toBeNull();
          expect(r.stuck).toBe(0);
          entries += r.entries;
          if (r.faulted) faulted++;
          during.push(...r.duringCuts);
        }
        reached.stop();
        expect(faulted).toBeGreaterThanOrEqual(0.9 * SEEDS);
        expect(reached.counts.get('maekawa:reselected') ?? 0).toBeGreaterThan(0);
        if (scenario === 'partition') {
          // every cut of a member holding nothing: the majority side entered during it
          expect(during.length).toBeGreaterThanOrEqual(faulted);
          expect(Math.min(...during)).toBeGreaterThan(0);
        }
        console.info(
          `${coterie.description}, ${scenario}: ${entries} entries over ${SEEDS} seeds` +
            (during.length > 0 ? `; majority-side entries per cut: min ${Math.min(...during)}` : ''),
        );
      });
    }
  }

  it('without reselection the same crash leaves live processes stuck (what the option changes)', async () => {
    const coterie = majority(5);
    const cluster = createCluster({
      factory: maekawa({ coterie }),
      spec: mutexSpec(5),
      seed: 1,
      suspectAfter: 2,
    });
    cluster.net.schedule(0, () => cluster.net.crash(4));
    const r = await runWorkload(cluster, { rounds: ROUNDS, think: 1, hold: 0.5 });
    expect(r.violation).toBeNull();
    expect(r.stuck.filter((s) => s.process !== 4).length).toBeGreaterThan(0);
  });

  it('the descriptor parameter reselect=on|off; an initial holder under reselection holds only its Q_i', async () => {
    const ctx = { weigh: () => {}, readJson: () => ({}), isFile: () => false } as never;
    expect(maekawaDescriptor.build({ coterie: 'majority', reselect: 'on' }, 5, ctx).options).toEqual({
      coterie: 'majority',
      reselect: 'on',
    });
    expect(maekawaDescriptor.build({ coterie: 'majority' }, 5, ctx).options).toEqual({ coterie: 'majority' });
    expect(() => maekawaDescriptor.build({ reselect: 'yes' }, 5, ctx)).toThrow(ConfigurationError);
    const coterie = majority(5);
    const initial = ['OutCS', 'OutCS', 'InCS', 'OutCS', 'OutCS'] as const;
    const cluster = createCluster({
      factory: maekawa({ coterie, reselect: true }),
      spec: mutexSpec(5),
      initial: [...initial],
      seed: 3,
      suspectAfter: 2,
    });
    const granted = cluster.objects.map(
      (o) => (o as unknown as { inspect(): MaekawaSnapshot }).inspect().arbiter.grantedTo,
    );
    expect(granted.flatMap((g, k) => (g === 2 ? [k] : []))).toEqual([...coterie.quorumOf(2)]);
    const r = await runWorkload(cluster, { rounds: ROUNDS, think: 1, hold: 0.5 });
    expect(r.ok).toBe(true);
  });

  it('a durable state saved on a reselected quorum is refused at restart (README: restarts under reselection, not yet)', () => {
    const coterie = majority(5);
    const q0 = coterie.quorumOf(0);
    const suspected: ReadonlySet<number> = new Set([q0.find((p) => p !== 0)!]);
    const suspicions: Suspicions = { suspected: () => suspected, onChange: () => () => {} };
    const factory = maekawa({ coterie, reselect: true });
    const initial: CSState[] = Array(5).fill('OutCS');
    const cs = factory({ id: 0, n: 5, endpoint: new SimNetwork({ n: 5 }).endpoint(0), initial, suspicions });
    void cs.entry().catch(() => {}); // S1: asks a quorum avoiding the suspect
    const saved = (cs as unknown as DurableCSObject).durableState() as { quorum: number[] };
    expect(saved.quorum).not.toEqual([...q0]);
    const endpoint = new SimNetwork({ n: 5 }).endpoint(0);
    expect(() => factory({ id: 0, n: 5, endpoint, initial, recovered: saved, suspicions })).toThrow(
      ConfigurationError,
    );
  });

  it('an idle state saved after an entry on a reselected quorum resumes (how @critsec/locks rebuilds a reclaimed name)', async () => {
    const coterie = majority(5);
    // P1 and P3 suspected: P0, P2 and P4 all ask {0, 2, 4} — P0 not its Q_0 = {0, 1, 2}, P0's
    // arbiter a process outside R_0 = {0, 3, 4} (P2; S4: any asker)
    const suspected: ReadonlySet<number> = new Set([1, 3]);
    const suspicions: Suspicions = { suspected: () => suspected, onChange: () => () => {} };
    const factory = maekawa({ coterie, reselect: true });
    const initial: CSState[] = Array(5).fill('OutCS');
    const net = new SimNetwork({ n: 5 });
    const objects = [0, 1, 2, 3, 4].map((id) =>
      factory({ id, n: 5, endpoint: net.endpoint(id), initial, suspicions }),
    );
    expect([coterie.quorumOf(0), coterie.reportersOf(0)]).toEqual([
      [0, 1, 2],
      [0, 3, 4],
    ]);
    for (const id of [0, 2, 4]) {
      const entered = objects[id]!.entry();
      await net.run();
      await entered;
      await objects[id]!.exit();
      await net.run();
    }
    const saved = (objects[0] as unknown as DurableCSObject).durableState() as {
      quorum: number[];
      arbiter: { done: [number, number][] };
    };
    expect(saved.quorum).toEqual([0, 2, 4]);
    expect(saved.arbiter.done.map(([p]) => p)).toContain(2);
    const again = () => ({
      id: 0,
      n: 5,
      endpoint: new SimNetwork({ n: 5 }).endpoint(0),
      initial,
      recovered: saved,
      suspicions,
    });
    expect(() => factory(again())).not.toThrow();
    expect(() => maekawa({ coterie })(again())).toThrow(ConfigurationError); // without reselection: refused
  });
});
