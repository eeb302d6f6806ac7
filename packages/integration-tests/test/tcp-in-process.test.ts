/**
 * Issue #6, "What it must show" (1): Maekawa on the grid coterie and the (l,k)-GCS pass the
 * concurrent compliance workload over real TCP with mutual TLS on loopback, n = 5 and n = 9, all
 * processes in this Node process, with the safety monitor of @critsec/testing on every
 * `statechange`: every process completes its rounds, zero violations.
 */
import { mutexSpec } from '@critsec/core';
import { neverGrantMutex, unsafeMutex } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { type AlgorithmCase, gcsCase, maekawaCase } from './helpers/algorithms.js';
import { closeAfterEach } from './helpers/cleanup.js';
import { describeRun, runRealtimeWorkload } from './helpers/realtime-workload.js';
import { createTcpCluster, quiesce } from './helpers/tcp-cluster.js';

const track = closeAfterEach();
const ROUNDS = 40;

const cases: AlgorithmCase[] = [maekawaCase(5), maekawaCase(9), gcsCase(5, 1, 3), gcsCase(9, 2, 5)];

describe('the compliance workload over TCP/TLS on loopback, one process, safety monitor on', () => {
  for (const c of cases) {
    it(`${c.name}: every process completes ${ROUNDS} rounds, zero violations`, async () => {
      const cluster = track(await createTcpCluster({ factory: c.factory, spec: c.spec, initial: c.initial }));
      const r = await runRealtimeWorkload(cluster, { rounds: ROUNDS, thinkMs: 2, holdMs: 1, seed: 7 });
      console.log(describeRun(c.name, r));
      expect(r.failure).toBeNull();
      expect(r.violations).toEqual([]);
      expect(r.stuck).toEqual([]);
      expect(r.entries).toEqual(new Array(c.spec.n).fill(ROUNDS));
      expect(r.exits).toEqual(new Array(c.spec.n).fill(ROUNDS));
      // The monitor saw every flip of every counted call (and of the extra ones).
      expect(r.stateChanges).toBeGreaterThanOrEqual(2 * ROUNDS * c.spec.n);
      expect(cluster.monitor.recheck()).toBeNull();
      await quiesce(cluster);
      expect(cluster.errors).toEqual([]);
      // The traffic really went over TLS sockets between the processes: one connection to each
      // peer up at the end (a process starved by a loaded machine may miss heartbeats and
      // reconnect, which counts a connection and a disconnection more).
      for (const t of cluster.transports) {
        expect(t.stats.connections - t.stats.disconnections).toBe(c.spec.n - 1);
        expect(t.stats.bytesOut).toBeGreaterThan(0);
      }
    });
  }
});

describe('calls withdrawn at random (abort) over TCP/TLS', () => {
  for (const c of [maekawaCase(5), gcsCase(5, 1, 3), gcsCase(9, 2, 5)]) {
    it(`${c.name}: aborted entries and exits leave the protocol consistent; every process completes`, async () => {
      const cluster = track(await createTcpCluster({ factory: c.factory, spec: c.spec, initial: c.initial }));
      const r = await runRealtimeWorkload(cluster, {
        rounds: 20,
        thinkMs: 2,
        holdMs: 1,
        seed: 5,
        abort: { probability: 0.3, withinMs: 3 },
      });
      console.log(describeRun(c.name, r));
      expect(r.failure).toBeNull();
      expect(r.violations).toEqual([]);
      expect(r.entries).toEqual(new Array(c.spec.n).fill(20));
      expect(r.exits).toEqual(new Array(c.spec.n).fill(20));
      expect(r.aborted).toBeGreaterThan(0);
      await quiesce(cluster);
      expect(cluster.errors).toEqual([]);
    });
  }
});

describe('the harness bites (broken objects from @critsec/testing over TCP)', () => {
  it('unsafeMutex: the monitor reports violations', async () => {
    const cluster = track(await createTcpCluster({ factory: unsafeMutex(), spec: mutexSpec(3) }));
    const r = await runRealtimeWorkload(cluster, { rounds: 10, thinkMs: 1, holdMs: 3 });
    expect(r.ok).toBe(false);
    expect(r.violations.length).toBeGreaterThan(0);
    expect(r.violations[0]!.message).toMatch(/more than k = 1/);
  });

  it('neverGrantMutex: the run stalls and names the stuck processes', async () => {
    const cluster = track(await createTcpCluster({ factory: neverGrantMutex(), spec: mutexSpec(3) }));
    const r = await runRealtimeWorkload(cluster, { rounds: 2, stallMs: 500 });
    expect(r.ok).toBe(false);
    expect(r.failure).toMatch(/no call completed for 500 ms/);
    expect(r.stuck.map((s) => s.process)).toEqual([0, 1, 2]);
    expect(r.violations).toEqual([]);
  });
});
