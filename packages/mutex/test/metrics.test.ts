/**
 * Exact message counts and waiting times (DESIGN.md 4: "compared in tests against the paper's
 * bounds — exact counts, not timings"). Messages a process sends to itself are counted (a process
 * is usually in its own quorum).
 *
 * - No contention (the sequential workload: one invocation in the whole cluster at a time, the
 *   network quiet in between): Maekawa's entry costs exactly 2·|Q_i| (REQUEST, LOCKED) and its
 *   exit exactly |Q_i| (RELEASE), so 3·|Q_i| per CS; Ricart–Agrawala 2(n − 1) per CS. Under unit
 *   delays the entry waits exactly 2 time units and the exit 0.
 * - Full contention (every process always requesting: think = hold = 0): Maekawa's mean per CS
 *   ≤ 6·|Q|, measured two ways — the cluster's total after driving it to rest divided by every
 *   CS it ran, and per exit+entry pair with causal attribution (each message charged to the
 *   invocation whose message chain caused it; a re-LOCKED after a RELEASE is charged to that
 *   exit), which also gives the max.
 */
import { mutexSpec } from '@critsec/core';
import { type Coterie, grid, majority, projectivePlane, tree, wall } from '@critsec/coteries';
import { createCluster, runWorkload } from '@critsec/harness';
import { drainToRest } from '@critsec/testing';
import { type DelayModel, exponentialDelay, uniformDelay, unitDelay } from '@critsec/transport-sim';
import { afterAll, describe, expect, it } from 'vitest';
import { maekawa, ricartAgrawala } from '../src/index.js';
import { coteriesFor, fairnessProbe, maxOvertakes, meanQuorumSize, SIZES } from './helpers.js';

const report: string[] = [];
afterAll(() => {
  if (report.length > 0) console.info(report.join('\n'));
});

describe('no contention (sequential workload, unit delays)', () => {
  for (const n of SIZES) {
    it(`n = ${n}: Maekawa on every coterie costs exactly 3·|Q_i| per CS; entry waits 2, exit 0`, async () => {
      const line: string[] = [];
      for (const [label, coterie] of coteriesFor(n)) {
        const cluster = createCluster({ factory: maekawa({ coterie }), spec: mutexSpec(n), seed: n });
        const r = await runWorkload(cluster, { kind: 'sequential', rounds: 3 });
        expect(r.ok, r.failure ?? '').toBe(true);
        for (const rec of r.records) {
          const q = coterie.quorumOf(rec.process).length;
          expect(rec.messages, `${label} P${rec.process} ${rec.op}`).toBe(rec.op === 'entry' ? 2 * q : q);
        }
        const types = Object.keys(r.messages.byType).sort();
        expect(types).toEqual([' LOCKED', ' RELEASE', ' REQUEST']);
        expect(r.perPair.count).toBe(3 * n);
        expect(r.waiting.entry).toMatchObject({ count: 3 * n, mean: 2, max: 2 });
        expect(r.waiting.exit).toMatchObject({ count: 3 * n, mean: 0, max: 0 });
        const sizes = [...new Set(Array.from({ length: n }, (_, i) => coterie.quorumOf(i).length))];
        line.push(`${label} ${r.perPair.mean.toFixed(2)} (3|Q| = ${sizes.map((s) => 3 * s).join('/')})`);
      }
      report.push(
        `no contention, Maekawa, n = ${n}: messages per CS ${line.join(', ')}; waiting entry 2, exit 0`,
      );
    });
  }

  it('Ricart–Agrawala costs exactly 2(n − 1) per CS; entry waits 2 (0 for n = 1), exit 0', async () => {
    const line: string[] = [];
    for (const n of SIZES) {
      const cluster = createCluster({ factory: ricartAgrawala(), spec: mutexSpec(n), seed: n });
      const r = await runWorkload(cluster, { kind: 'sequential', rounds: 3 });
      expect(r.ok, r.failure ?? '').toBe(true);
      for (const rec of r.records) expect(rec.messages).toBe(rec.op === 'entry' ? 2 * (n - 1) : 0);
      expect(r.perPair).toMatchObject({ count: 3 * n, mean: 2 * (n - 1), max: 2 * (n - 1) });
      const w = n === 1 ? 0 : 2;
      expect(r.waiting.entry).toMatchObject({ mean: w, max: w });
      expect(r.waiting.exit).toMatchObject({ mean: 0, max: 0 });
      line.push(`n=${n}: ${r.perPair.mean}`);
    }
    report.push(`no contention, Ricart–Agrawala: messages per CS ${line.join(', ')} (= 2(n−1))`);
  });
});

describe('full contention (every process always requesting)', () => {
  const DELAYS: readonly DelayModel[] = [unitDelay, uniformDelay(0.1, 2), exponentialDelay(1)];
  const CASES: [string, Coterie][] = [
    ['grid 3×3', grid(9)],
    ['grid 4×4', grid(16)],
    ['grid 5×5', grid(25)],
    ['projective plane q=2', projectivePlane(2)],
    ['projective plane q=3', projectivePlane(3)],
    ['majority n=9', majority(9)],
    ['tree n=7', tree(7)],
    ['wall [3,3,3]', wall([3, 3, 3])],
  ];
  for (const [label, coterie] of CASES) {
    it(`Maekawa on ${label}: mean messages per CS ≤ 6·|Q| (max reported); fairness bound n − 1`, async () => {
      const q = meanQuorumSize(coterie);
      let sum = 0;
      let pairs = 0;
      let max = 0;
      let overtakes = 0;
      let naive = 0;
      let sent = 0;
      let cs = 0;
      const seeds = coterie.n >= 16 ? 3 : 8;
      for (const delay of DELAYS) {
        for (let s = 1; s <= seeds; s++) {
          const probe = fairnessProbe();
          const cluster = createCluster({
            factory: probe.wrap(maekawa({ coterie })),
            spec: mutexSpec(coterie.n),
            seed: s,
            delay,
            attribution: true,
          });
          probe.attach(cluster.net);
          const r = await runWorkload(cluster, { rounds: 3, think: 0, hold: 0 });
          expect(r.ok, r.failure ?? '').toBe(true);
          sum += r.perPair.mean * r.perPair.count;
          pairs += r.perPair.count;
          max = Math.max(max, r.perPair.max);
          overtakes = Math.max(overtakes, probe.maxOvertakes(r.records));
          naive = Math.max(naive, maxOvertakes(r.records));
          await drainToRest(cluster);
          sent += cluster.net.counters().sent;
          cs += cluster.monitor.steps / 2;
        }
      }
      const mean = sum / pairs;
      const total = sent / cs;
      expect(mean).toBeLessThanOrEqual(6 * q);
      expect(total).toBeLessThanOrEqual(6 * q);
      expect(total).toBeGreaterThan(3 * q); // contention really happened
      expect(overtakes).toBeLessThanOrEqual(coterie.n - 1);
      report.push(
        `full contention, Maekawa ${label}: |Q| = ${q.toFixed(2)}; total/CS ${total.toFixed(2)} = ${(total / q).toFixed(2)}·|Q|, per pair mean ${mean.toFixed(2)} = ${(mean / q).toFixed(2)}·|Q| (≤ 6·|Q| = ${(6 * q).toFixed(1)}), max ${max} = ${(max / q).toFixed(2)}·|Q|; max overtakes ${overtakes} (bound n − 1 = ${coterie.n - 1}; counting every later invocation ${naive}); ${cs} CS`,
      );
    });
  }

  it('Ricart–Agrawala stays at exactly 2(n − 1) per CS under contention (n = 9), and nobody overtakes a delivered request', async () => {
    let overtakes = 0;
    let naive = 0;
    for (const delay of DELAYS) {
      for (let s = 1; s <= 8; s++) {
        const probe = fairnessProbe();
        const cluster = createCluster({
          factory: probe.wrap(ricartAgrawala()),
          spec: mutexSpec(9),
          seed: s,
          delay,
        });
        probe.attach(cluster.net);
        const r = await runWorkload(cluster, { rounds: 3, think: 0, hold: 0 });
        expect(r.ok, r.failure ?? '').toBe(true);
        overtakes = Math.max(overtakes, probe.maxOvertakes(r.records));
        naive = Math.max(naive, maxOvertakes(r.records));
        await drainToRest(cluster);
        expect(cluster.net.counters().sent).toBe(16 * (cluster.monitor.steps / 2));
      }
    }
    expect(overtakes).toBe(0);
    report.push(
      `full contention, Ricart–Agrawala n = 9: exactly 16 = 2(n − 1) per CS; overtakes of delivered requests ${overtakes}, counting every later invocation ${naive}`,
    );
  });
});
