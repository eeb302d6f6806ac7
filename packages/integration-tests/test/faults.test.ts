/**
 * Issue #6, "What it must show" (3): an algorithm over TLS while sockets are destroyed at random
 * during the run, hundreds of times: the run completes with zero violations (safety monitor on
 * every state change), and the per-link counters show nothing lost or duplicated — both the
 * session layer's (sent by P_i to P_j = delivered at P_j from P_i) and, above the transport, the
 * exact sequence of messages per (sender, receiver, channel) as the algorithm sent and received them.
 */
import { createRng } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { type AlgorithmCase, gcsCase, maekawaCase } from './helpers/algorithms.js';
import { closeAfterEach } from './helpers/cleanup.js';
import {
  describeRun,
  type RealtimeWorkloadResult,
  runRealtimeWorkload,
} from './helpers/realtime-workload.js';
import { createTcpCluster, quiesce, type TcpCluster } from './helpers/tcp-cluster.js';

const track = closeAfterEach();

/**
 * Destroys connections at random until stopped, two ways, both paced by the traffic, not by the
 * machine's speed: a random established connection (from either end) every 3–10 ms provided a
 * message between processes was sent since the last one (a slow machine, whose handshakes take
 * longer, must not be cut faster than it makes progress), and after 1 in 4 messages between
 * processes (seeded draw), the connection that message was just handed to, on the next turn of
 * the event loop (it is then usually still in flight).
 */
function chaos(cluster: TcpCluster, seed: number): { stop(): Promise<number> } {
  const r = createRng(seed); // the project's one PRNG: reproducible chaos
  const n = cluster.n;
  let destroyed = 0;
  let running = true;
  const drop = (a: number, b: number) => {
    if (running && cluster.transports[a]!.dropConnection(b)) destroyed++;
  };
  let sentSinceDrop = false;
  cluster.links!.onSend = (from, to) => {
    if (from === to) return;
    sentSinceDrop = true;
    if (r.chance(0.25)) setImmediate(() => drop(from, to));
  };
  const loop = (async () => {
    while (running) {
      const a = r.int(n);
      const b = (a + 1 + r.int(n - 1)) % n;
      if (sentSinceDrop) {
        sentSinceDrop = false;
        drop(a, b);
      }
      await new Promise((res) => setTimeout(res, 3 + r.int(8)));
    }
  })();
  return {
    async stop() {
      running = false;
      cluster.links!.onSend = undefined;
      await loop;
      return destroyed;
    },
  };
}

const cases: { c: AlgorithmCase; rounds: number; minDestroyed: number }[] = [
  { c: maekawaCase(5), rounds: 30, minDestroyed: 200 },
  { c: gcsCase(5, 1, 3), rounds: 10, minDestroyed: 200 },
];

describe('faults: sockets destroyed at random during the run', () => {
  for (const { c, rounds, minDestroyed } of cases) {
    it(`${c.name} over TLS: completes, zero violations, nothing lost or duplicated on any link`, async () => {
      const cluster = track(
        await createTcpCluster({
          factory: c.factory,
          spec: c.spec,
          initial: c.initial,
          recordLinks: true,
          transport: { reconnect: { initialDelayMs: 2, maxDelayMs: 50 } },
        }),
      );
      const monkey = chaos(cluster, 2024);
      let r: RealtimeWorkloadResult;
      let destroyed: number;
      try {
        r = await runRealtimeWorkload(cluster, { rounds, thinkMs: 2, holdMs: 1, seed: 3 });
      } finally {
        destroyed = await monkey.stop();
      }
      await quiesce(cluster);
      const n = c.spec.n;

      // The run: complete and safe.
      expect(r.failure).toBeNull();
      expect(r.violations).toEqual([]);
      expect(r.entries).toEqual(new Array(n).fill(rounds));
      expect(r.exits).toEqual(new Array(n).fill(rounds));
      expect(cluster.errors).toEqual([]);

      // The chaos: hundreds of sockets destroyed, each followed by a reconnection.
      expect(destroyed).toBeGreaterThanOrEqual(minDestroyed);
      const handshakes = cluster.transports.reduce((s, t) => s + t.stats.connections, 0);
      const lost = cluster.transports.reduce((s, t) => s + t.stats.disconnections, 0);
      expect(handshakes).toBeGreaterThan(destroyed);

      // Per link, the session layer: everything P_i sent to P_j was delivered at P_j, exactly once.
      let sent = 0;
      let retransmitted = 0;
      let duplicates = 0;
      for (const ti of cluster.transports) {
        for (const tj of cluster.transports) {
          if (ti === tj) continue;
          const out = ti.peerStats(tj.self).session;
          const inn = tj.peerStats(ti.self).session;
          expect(inn.delivered, `P${ti.self} -> P${tj.self}`).toBe(out.sent);
          expect(ti.peerStats(tj.self).unacked).toBe(0);
          sent += out.sent;
          retransmitted += out.retransmitted;
          duplicates += inn.duplicates;
        }
      }
      // The chaos really cut traffic in flight: frames were resent after reconnections.
      expect(retransmitted).toBeGreaterThan(0);

      // Above the transport: per (sender, receiver, channel) the delivered sequence is the sent one.
      const links = cluster.links!;
      expect(links.mismatches()).toEqual([]);
      const totals = links.totals();
      expect(totals.delivered).toBe(totals.sent);
      expect(totals.sent).toBeGreaterThanOrEqual(sent); // plus messages to self

      console.log(
        `${describeRun(c.name, r)}\n  chaos: ${destroyed} sockets destroyed, ${lost} disconnections seen, ` +
          `${handshakes} handshakes; ${sent} messages between processes (${totals.sent} with self-messages, ` +
          `${totals.links} links incl. channels), ${retransmitted} frames resent, ${duplicates} duplicates dropped, ` +
          `0 lost, 0 duplicated, 0 reordered`,
      );
    });
  }
});
