/**
 * Every algorithm × every transport (DESIGN.md §2, integration-tests): maekawa, ricartAgrawala,
 * mutin, kMutex and gcs, each on the simulated network (`createCluster` + `runWorkload` of
 * @critsec/testing, messages passed through JSON like a real wire) and over TCP/TLS in one
 * process (this package's harness) — a smoke test: small n, few rounds, the safety monitor on.
 */
import { assertWorkloadOk, createCluster, runWorkload } from '@critsec/harness';
import { describe, expect, it } from 'vitest';
import { matrixCases } from './helpers/algorithms.js';
import { closeAfterEach } from './helpers/cleanup.js';
import { runRealtimeWorkload } from './helpers/realtime-workload.js';
import { createTcpCluster, quiesce } from './helpers/tcp-cluster.js';

const track = closeAfterEach();
const N = 4;
const ROUNDS = 4;

describe(`algorithm × transport smoke matrix (n = ${N}, ${ROUNDS} rounds)`, () => {
  for (const c of matrixCases(N)) {
    it(`${c.name} × sim`, async () => {
      const cluster = createCluster({
        factory: c.factory,
        spec: c.spec,
        initial: c.initial,
        seed: 11,
        serialize: true,
      });
      track(cluster);
      const r = await runWorkload(cluster, { kind: 'concurrent', rounds: ROUNDS });
      assertWorkloadOk(`${c.name} × sim`, r);
      expect(r.violation).toBeNull();
      expect(r.entries).toBe(N * ROUNDS);
      expect(r.exits).toBe(N * ROUNDS);
      expect(cluster.errors).toEqual([]);
    });

    it(`${c.name} × tcp (TLS, one process)`, async () => {
      const cluster = track(await createTcpCluster({ factory: c.factory, spec: c.spec, initial: c.initial }));
      const r = await runRealtimeWorkload(cluster, { rounds: ROUNDS, thinkMs: 1, holdMs: 1, seed: 11 });
      expect(r.failure).toBeNull();
      expect(r.violations).toEqual([]);
      expect(r.entries).toEqual(new Array(N).fill(ROUNDS));
      expect(r.exits).toEqual(new Array(N).fill(ROUNDS));
      await quiesce(cluster);
      expect(cluster.errors).toEqual([]);
    });
  }
});
