/**
 * The failure detector of the TCP transport (issue 28 §4): a peer whose connection is down or
 * silent past `suspectAfterMs` is suspected (`endpoint.suspicions`) and trusted again when its
 * session is back; a peer that announces leaving is suspected at once. P_0 reaches P_1 through a
 * TCP relay the test cuts: `down` (every connection reset, new ones refused — a killed peer) or
 * `silent` (bytes swallowed, sockets kept open — a paused peer, a black hole). Every wait is
 * bounded by progress (`until`), never by a short deadline.
 */
import net from 'node:net';
import { ConfigurationError, type ProcessId } from '@critsec/core';
import { afterEach, describe, expect, it } from 'vitest';
import { type TcpTransport, tcpTransport } from '../src/index.js';
import { freeLoopbackPorts } from '../src/setup.js';
import { collectWarnings, devCerts, until } from './helpers.js';

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

type RelayMode = 'pass' | 'down' | 'silent';

/**
 * A TCP relay from a free loopback port to `target`, whose mode the test switches;
 * `lastToDialer()` is when it last passed bytes from `target` to the dialing side
 * (`performance.now()`).
 */
async function relay(
  target: number,
): Promise<{ port: number; set(mode: RelayMode): void; lastToDialer(): number }> {
  let mode: RelayMode = 'pass';
  let lastToDialer = Number.NaN;
  const pairs = new Set<[net.Socket, net.Socket]>();
  const server = net.createServer((client) => {
    if (mode === 'down') return void client.destroy();
    const upstream = net.connect(target, '127.0.0.1');
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    for (const [from, to] of [pair, [upstream, client] as const]) {
      from.on('data', (b: Buffer) => {
        if (mode !== 'pass') return;
        to.write(b);
        if (to === client) lastToDialer = performance.now();
      });
      from.on('error', () => {});
      from.on('close', () => {
        to.destroy();
        pairs.delete(pair);
      });
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  cleanups.push(
    () =>
      new Promise<void>((r) => {
        for (const pair of pairs) for (const sock of pair) sock.destroy();
        server.close(() => r());
      }),
  );
  return {
    port: (server.address() as net.AddressInfo).port,
    set(m) {
      mode = m;
      if (m === 'down') for (const pair of pairs) for (const sock of pair) sock.destroy();
    },
    lastToDialer: () => lastToDialer,
  };
}

const HEARTBEAT = { heartbeatIntervalMs: 50, heartbeatTimeoutMs: 2_000 } as const;

/** P_0 and P_1 over TLS; P_0 dials P_1 through the relay. */
async function pairThroughRelay(suspectAfterMs: number) {
  const certs = await devCerts();
  const [p0, p1] = await freeLoopbackPorts(2);
  const r = await relay(p1!);
  const make = (self: ProcessId, p1Port: number): TcpTransport =>
    tcpTransport({
      self,
      peers: [
        { id: 0, host: '127.0.0.1', port: p0! },
        { id: 1, host: '127.0.0.1', port: p1Port },
      ],
      tls: { ca: certs.ca, cert: certs.processes[self]!.cert, key: certs.processes[self]!.key },
      logger: collectWarnings(),
      reconnect: { initialDelayMs: 5, maxDelayMs: 50 },
      lingerMs: 0,
      suspectAfterMs,
      ...HEARTBEAT,
    });
  const ts = [make(0, r.port), make(1, p1!)];
  cleanups.push(() => Promise.all(ts.map((t) => t.close({ lingerMs: 0 }).catch(() => {}))));
  await Promise.all(ts.map((t) => t.start()));
  await until(() => ts.every((t) => t.isConnected(1 - t.self)), 'both connected');
  return { ts, relay: r };
}

/** Waits until P_0 suspects (or trusts) P_1; returns the ms it took from `since`. */
async function p0Suspects(t: TcpTransport, suspected: boolean, since: number): Promise<number> {
  await until(
    () => t.endpoint.suspicions.suspected().has(1) === suspected,
    `P_0 ${suspected ? 'suspects' : 'trusts'} P_1`,
  );
  return performance.now() - since;
}

describe('the TCP failure detector (issue 28 §4)', () => {
  it('a killed peer (connection reset, redials refused) is suspected once down past suspectAfterMs, trusted again on return', async () => {
    const { ts, relay: r } = await pairThroughRelay(300);
    const s = ts[0]!.endpoint.suspicions;
    const changes: number[] = [];
    s.onChange(() => changes.push(s.suspected().size));
    expect(s.suspected().size).toBe(0);
    const cut = performance.now();
    r.set('down');
    const took = await p0Suspects(ts[0]!, true, cut);
    expect(took).toBeGreaterThanOrEqual(300); // not before suspectAfterMs: down is not yet dead
    r.set('pass');
    await p0Suspects(ts[0]!, false, cut); // the redial succeeds: its session is back
    expect(ts[0]!.isConnected(1)).toBe(true);
    expect(changes).toEqual([1, 0]);
  });

  it('a silent peer (connection open, nothing arrives) is suspected past suspectAfterMs, before the heartbeat closes it', async () => {
    const { ts, relay: r } = await pairThroughRelay(300);
    const cut = performance.now();
    r.set('silent');
    // silence counts from the last frame P_0 received, which is no earlier than the last bytes the
    // relay passed it, less a partial frame's worth (a ping interval) — measured from there, not
    // from the cut, so a starved test process (the last ping long before the cut) cannot fail it
    const lastPassed = r.lastToDialer();
    const took = await p0Suspects(ts[0]!, true, lastPassed);
    expect(took).toBeGreaterThanOrEqual(300 - HEARTBEAT.heartbeatIntervalMs);
    await until(() => ts[1]!.endpoint.suspicions.suspected().has(0), 'P_1 suspects P_0'); // silent both ways
    r.set('pass');
    await p0Suspects(ts[0]!, false, cut);
    await until(() => !ts[1]!.endpoint.suspicions.suspected().has(0), 'P_1 trusts P_0 again');
  });

  it('a peer that announces leaving is suspected at once, while it still lingers, not after suspectAfterMs', async () => {
    const { ts } = await pairThroughRelay(600_000);
    const closing = ts[1]!.close({ lingerMs: 600_000 }); // graceful: lingers until P_0 leaves too
    let closed = false;
    void closing.finally(() => {
      closed = true;
    });
    await p0Suspects(ts[0]!, true, performance.now());
    expect(closed).toBe(false);
    expect(ts[0]!.isConnected(1)).toBe(true);
    await ts[0]!.close({ lingerMs: 600_000 });
    await closing;
  });

  it('suspectAfterMs is checked: a number of ms above heartbeatIntervalMs', async () => {
    const certs = await devCerts();
    const base = {
      self: 0,
      peers: [
        { id: 0, host: '127.0.0.1', port: 1 },
        { id: 1, host: '127.0.0.1', port: 2 },
      ],
      tls: { ca: certs.ca, cert: certs.processes[0]!.cert, key: certs.processes[0]!.key },
      ...HEARTBEAT,
    };
    for (const bad of [50, 10, Number.NaN, 2 ** 31, '300' as unknown as number]) {
      expect(() => tcpTransport({ ...base, suspectAfterMs: bad })).toThrow(ConfigurationError);
    }
    expect(() => tcpTransport({ ...base, suspectAfterMs: 10 })).toThrow(
      /suspectAfterMs.*heartbeatIntervalMs = 50/,
    );
    expect(() => tcpTransport({ ...base, suspectAfterMs: 51 })).not.toThrow();
  });
});
