import type { Message, ProcessId } from '@critsec/core';
import { createRng } from '@critsec/core';
import { noProgressMs } from '@critsec/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type TcpTransport, tcpTransport } from '../src/index.js';
import { freeLoopbackPorts } from '../src/setup.js';
import {
  collectWarnings,
  devCerts,
  helloFrame,
  lone,
  rawConnect,
  SeqChecker,
  sleep,
  startCluster,
  until,
} from './helpers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

describe('fault tolerance: reliable FIFO across dropped connections', () => {
  it('destroying sockets hundreds of times during a run loses, duplicates and reorders nothing', async () => {
    const n = 4;
    const c = await startCluster(n, { heartbeatIntervalMs: 50, heartbeatTimeoutMs: 1_000 });
    cleanups.push(c.close);
    const channels = ['x', 'y/z'];
    const checkers = c.transports.map((t) => new SeqChecker(t.self));
    c.transports.forEach((t, i) => {
      t.endpoint.channel('x').onMessage(checkers[i]!.onMessage('x'));
      t.endpoint.channel('y').channel('z').onMessage(checkers[i]!.onMessage('y/z'));
    });
    const r = createRng(2024); // the project's one PRNG: reproducible chaos
    const perLink = 1_500; // messages per (sender, receiver, channel)
    const batch = 5;
    let destroyed = 0;
    for (let k = 0; k < perLink || destroyed < 300; k += batch) {
      for (const t of k < perLink ? c.transports : []) {
        for (let to = 0; to < n; to++) {
          for (let j = k; j < k + batch; j++) {
            t.endpoint.channel('x').send(to, { type: 'SEQ', k: j });
            t.endpoint.channel('y').channel('z').send(to, { type: 'SEQ', k: j });
          }
        }
      }
      // Destroy up to two random established connections, from either end.
      for (let d = 0; d < 2; d++) {
        const a = r.int(n);
        const b = (a + 1 + r.int(n - 1)) % n;
        if (c.transports[a]!.dropConnection(b)) destroyed++;
      }
      await sleep(1 + r.int(4));
    }
    expect(destroyed).toBeGreaterThanOrEqual(300);
    const expected = n * channels.length * perLink;
    await until(() => checkers.every((ch) => ch.received >= expected), 'every message after the chaos');
    await Promise.all(c.transports.map((t) => t.flush({ timeoutMs: noProgressMs() })));
    // Exactly once, in order, per (from, to, channel).
    for (const ch of checkers) {
      expect(ch.errors).toEqual([]);
      expect(ch.received).toBe(expected);
      for (let from = 0; from < n; from++) {
        for (const chan of channels) expect(ch.next.get(`${from}/${chan}`)).toBe(perLink);
      }
    }
    let sent = 0;
    let delivered = 0;
    let retransmitted = 0;
    let duplicates = 0;
    for (const t of c.transports) {
      for (let p = 0; p < n; p++) {
        if (p === t.self) continue;
        const s = t.peerStats(p).session;
        sent += s.sent;
        delivered += s.delivered;
        retransmitted += s.retransmitted;
        duplicates += s.duplicates;
      }
    }
    expect(delivered).toBe(sent);
    expect(sent).toBe(n * (n - 1) * channels.length * perLink);
    // The chaos really cut traffic in flight: frames were resent and some arrived twice.
    expect(retransmitted).toBeGreaterThan(0);
    const connections = c.transports.reduce((s, t) => s + t.stats.connections, 0);
    expect(connections).toBeGreaterThan(destroyed);
    console.log(
      `chaos: ${destroyed} sockets destroyed, ${connections} handshakes, ${sent} messages, ` +
        `${retransmitted} frames resent, ${duplicates} duplicates dropped`,
    );
  });

  it('heartbeats detect a peer that went silent without closing, and close the connection', async () => {
    // P1 is real; P0 is played by hand: it handshakes, then hangs (no pings, no data).
    const { t, peers, certs } = await lone(1, 2, { heartbeatIntervalMs: 20, heartbeatTimeoutMs: 200 });
    cleanups.push(() => t.close());
    const reasons: string[] = [];
    t.on('disconnected', (e) => reasons.push(e.reason));
    const hung = await rawConnect(peers[1]!.port, { ca: certs.ca, ...certs.processes[0]! });
    hung.send(helloFrame(0, 'hung-session'));
    await until(() => t.isConnected(0), 'handshake');
    const t0 = Date.now();
    await hung.closed; // P1 closes it
    const waited = Date.now() - t0;
    await until(() => reasons.length > 0, 'disconnected event');
    expect(reasons).toEqual(['heartbeat timeout']);
    expect(t.stats.closed['heartbeat-timeout']).toBe(1);
    expect(waited).toBeGreaterThanOrEqual(150);
    // Meanwhile P1 did ping the silent peer.
    expect(hung.frames.filter((f) => (f as { t?: string }).t === 'ping').length).toBeGreaterThan(2);
  });
});

describe('a restarted peer (fresh state)', () => {
  async function twoThenRestart(onPeerRestart: 'refuse' | 'reset') {
    const certs = await devCerts();
    const ports = await freeLoopbackPorts(2);
    const peers = ports.map((port, id) => ({ id, host: '127.0.0.1', port }));
    const logger = collectWarnings();
    const mk = (self: ProcessId) =>
      tcpTransport({
        self,
        peers,
        tls: { ca: certs.ca, ...certs.processes[self]! },
        logger,
        onPeerRestart,
        reconnect: { initialDelayMs: 5, maxDelayMs: 50 },
        lingerMs: 0, // P1 stops as a crash would
      });
    const p0 = mk(0);
    let p1: TcpTransport = mk(1);
    cleanups.push(
      () => p0.close(),
      () => p1.close(),
    );
    const got0: Message[] = [];
    p0.endpoint.onMessage((_f, m) => got0.push(m));
    await Promise.all([p0.start(), p1.start()]);
    await p0.ready();
    for (let k = 0; k < 5; k++) p0.endpoint.send(1, { type: 'OLD', k });
    await p0.flush();
    await p1.close(); // "killed"
    for (let k = 5; k < 8; k++) p0.endpoint.send(1, { type: 'OLD', k }); // never acknowledged
    const oldSession = p1.session;
    p1 = mk(1); // restarted: a new session, no memory of the old one
    expect(p1.session).not.toBe(oldSession);
    const got1: Message[] = [];
    p1.endpoint.onMessage((_f, m) => got1.push(m));
    const p1Errors: string[] = [];
    p1.on('error', (e) => p1Errors.push(e.message));
    p1.endpoint.send(0, { type: 'NEW', k: 0 });
    await p1.start();
    return { p0, p1: () => p1, got0, got1, p1Errors, logger };
  }

  it('is refused by default: nothing is mis-sequenced, the refusal is counted and explained on both sides', async () => {
    const { p0, p1, got0, got1, p1Errors } = await twoThenRestart('refuse');
    await until(() => p0.stats.refused['peer-restarted'] >= 2, 'refusals');
    expect(
      p1Errors.some((m) =>
        /P0 refused the connection of P1: the peer restarted .* assume no crashes/.test(m),
      ),
    ).toBe(true);
    expect(p1().stats.refused['refused-by-peer']).toBeGreaterThanOrEqual(1);
    await sleep(50);
    expect(got0).toEqual([]); // the new incarnation's message is not delivered to P0
    expect(got1.filter((m) => m.type === 'OLD')).toEqual([]); // nor the old session's to it
    expect(p0.peerStats(1).unacked).toBe(3); // P0 still holds the old session's state, waiting
  });

  it("with onPeerRestart: 'reset' a fresh session starts; the old session's unacknowledged messages are discarded", async () => {
    const { p0, p1, got0, got1 } = await twoThenRestart('reset');
    await until(() => got0.length === 1, 'new message at P0');
    expect(got0).toEqual([{ type: 'NEW', k: 0 }]);
    expect(p0.peerStats(1).session.discarded).toBe(3);
    expect(p0.peerStats(1).session.resets).toBe(1);
    p0.endpoint.send(1, { type: 'AFTER', k: 0 });
    await until(() => got1.length === 1, 'message at the new P1');
    expect(got1).toEqual([{ type: 'AFTER', k: 0 }]); // none of the old session's OLD messages
    expect(p1().peerStats(0).session.delivered).toBe(1);
  });
});
