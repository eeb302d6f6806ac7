import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProtocolClock } from '@critsec/core';
import { SimNetwork, uniformDelay } from '@critsec/transport-sim';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createLockManager } from '../src/index.js';
import { simLocks } from './sim.js';

/** Serves `registry` at http://127.0.0.1:<port>/metrics, as `critsec node --metrics` will. */
async function serve(registry: Registry) {
  const server = createServer((_req, res) => {
    void registry.metrics().then((text) => {
      res.setHeader('content-type', registry.contentType);
      res.end(text);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/metrics`, close: () => new Promise((r) => server.close(r)) };
}

describe('metrics (prom-client)', () => {
  it('scraped over HTTP: acquisitions, waiting time (ms), holders per name, messages by type, instances, ifAvailable nulls, timeouts', async () => {
    const registry = new Registry();
    const { net, managers } = simLocks(3, 1, { registry, shared: ['db'], k: 2 });
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const a = managers[0]!.request('a', () => held);
    const b = managers[1]!.request('db', { mode: 'shared' }, () => 1);
    await net.run();
    const busy = managers[2]!.request('a', { ifAvailable: true }, (l) => l);
    const late = managers[2]!.request('a', { timeout: 3 }, () => 1).catch((e: Error) => e.name);
    await net.run();
    expect(await busy).toBeNull();
    expect(await late).toBe('LockTimeoutError');
    const http = await serve(registry);
    try {
      const text = await (await fetch(http.url)).text();
      const series = (name: string) => text.split('\n').filter((l) => l.startsWith(name));
      expect(series('critsec_lock_acquisitions_total')).toEqual(
        expect.arrayContaining([
          'critsec_lock_acquisitions_total{member="0",mode="exclusive"} 1',
          'critsec_lock_acquisitions_total{member="1",mode="shared"} 1',
        ]),
      );
      expect(series('critsec_lock_wait_ms_count')).toContain(
        'critsec_lock_wait_ms_count{member="0",mode="exclusive"} 1',
      );
      expect(series('critsec_lock_wait_ms_bucket{le="+Inf",member="0",mode="exclusive"}')).toHaveLength(1);
      expect(series('critsec_lock_holders')).toEqual(
        expect.arrayContaining([
          'critsec_lock_holders{member="0",name="a"} 1',
          'critsec_lock_holders{member="1",name="db"} 0',
        ]),
      );
      expect(series('critsec_lock_unavailable_total')).toContain(
        'critsec_lock_unavailable_total{member="2",mode="exclusive"} 1',
      );
      expect(series('critsec_lock_timeouts_total')).toContain(
        'critsec_lock_timeouts_total{member="2",mode="exclusive"} 1',
      );
      // messages by type: Maekawa's and h-out-of-k's
      const sent = series('critsec_lock_messages_sent_total');
      for (const type of ['REQUEST', 'LOCKED', 'request', 'OK', 'release']) {
        expect(
          sent.some((l) => l.includes(`type="${type}"`)),
          type,
        ).toBe(true);
      }
      expect(series('critsec_lock_instances{member="0"}')).toEqual(['critsec_lock_instances{member="0"} 2']);
    } finally {
      await http.close();
      release();
    }
    await a;
    await b;
  });

  it('peers up/down from the failure detector, and a grant expired before its release (issue 29)', async () => {
    const registry = new Registry();
    // the failure detector suspects a peer silent for 20 time units; grants live 30
    const net = new SimNetwork({ n: 3, seed: 4, delay: uniformDelay(1, 3), suspectAfter: 20 });
    const clock: ProtocolClock = { now: () => net.now, setTimer: (d, fn) => net.schedule(d, fn) };
    const managers = [0, 1, 2].map((id) =>
      createLockManager({ endpoint: net.endpoint(id), id, n: 3, clock, registry, ttl: 30 }),
    );
    const scrape = async () => (await registry.metrics()).split('\n');
    let expiredSeen = false;
    const held = managers[0]!.request('a', async (lock) => {
      // P0 is cut off while it holds: its renewals stop reaching the arbiters, its deadline passes
      net.partitions.cut([[0]]);
      await new Promise<void>((r) => lock.signal.addEventListener('abort', () => r(), { once: true }));
      expiredSeen = true;
    });
    await net.run({ stopWhen: () => expiredSeen, until: 10_000 });
    expect(expiredSeen).toBe(true);
    const during = await scrape();
    expect(during).toContain('critsec_lock_expired_grants_total{member="0",mode="exclusive"} 1');
    expect(during).toContain('critsec_peers_up{member="0"} 0');
    expect(during).toEqual(
      expect.arrayContaining([
        'critsec_peer_up{member="0",peer="1"} 0',
        'critsec_peer_up{member="1",peer="0"} 0',
      ]),
    );
    expect(during).toContain('critsec_peers_up{member="1"} 1');
    net.partitions.heal();
    // the failure detector's heartbeats never let the network go idle: run a while (time units)
    await net.run({ until: net.now + 200 });
    await held;
    const after = await scrape();
    expect(after).toContain('critsec_peers_up{member="0"} 2');
    expect(after).toContain('critsec_peer_up{member="1",peer="0"} 1');
    // one expiry, counted once
    expect(after).toContain('critsec_lock_expired_grants_total{member="0",mode="exclusive"} 1');
    for (const m of managers) await m.close();
  });
});
