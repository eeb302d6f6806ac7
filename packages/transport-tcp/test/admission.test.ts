/**
 * Issue 15, admission control and what unauthenticated connections may learn or cause: slots
 * per source and in all, slots reserved for the peers' addresses, the pre-handshake timeout,
 * counters; refusals that reveal nothing before authentication; junk before the hello counted
 * and dropped, not reported as `error` events.
 */
import { EventEmitter } from 'node:events';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Admission } from '../src/admission.js';
import { TransportContext } from '../src/context.js';
import { resolveOptions } from '../src/options.js';
import { helloFrame, lone, type RawConn, rawConnect, sleep, until } from './helpers.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

/** An idle plain TCP connection to `port` from `localAddress`; resolves once connected or closed. */
function idle(port: number, localAddress: string): Promise<net.Socket> {
  const s = net.connect({ host: '127.0.0.1', port, localAddress });
  s.on('error', () => {});
  cleanups.push(() => void s.destroy());
  return new Promise((resolve) => {
    s.once('connect', () => resolve(s));
    s.once('close', () => resolve(s));
  });
}

/** Resolves true once `s` is closed by the other side, false if it is still open after `ms`. */
function closedWithin(s: net.Socket, ms: number): Promise<boolean> {
  if (s.destroyed) return Promise.resolve(true);
  return Promise.race([
    new Promise<boolean>((r) => s.once('close', () => r(true))),
    sleep(ms).then(() => s.destroyed),
  ]);
}

describe('admission control', () => {
  it('limits unauthenticated connections per source and in all, keeps reserved slots for the peers, and counts them', async () => {
    // P1 listens; P0 (the only peer that dials P1) is at 127.0.0.1; the intruders are not.
    const { t, peers, certs } = await lone(1, 2, {
      maxUnauthenticated: 4,
      maxUnauthenticatedPerSource: 2,
      reservedPeerSlots: 1,
      unauthenticatedTimeoutMs: 1_000,
      reconnect: { initialDelayMs: 5, maxDelayMs: 50 },
    });
    cleanups.push(() => t.close());
    const port = peers[1]!.port;
    const a = [await idle(port, '127.0.1.1'), await idle(port, '127.0.1.1')];
    const third = await idle(port, '127.0.1.1'); // over the per-source limit
    // Refused at once; closed unread after unauthenticatedTimeoutMs (a reconnecting flood is slowed down).
    await until(() => t.stats.refused['source-limit'] === 1, 'the source-limit refusal');
    const b = [await idle(port, '127.0.1.2'), await idle(port, '127.0.1.2')];
    const fifth = await idle(port, '127.0.1.3'); // every general slot is taken
    await until(() => t.stats.refused.capacity === 1, 'the capacity refusal');
    expect(t.stats.unauthenticated.open).toBe(4);
    for (const s of [...a, ...b]) expect(s.destroyed).toBe(false);
    // P0's address gets the reserved slot although the pool is full: P0 connects.
    const p0 = await rawConnect(port, { ca: certs.ca, ...certs.processes[0]! });
    cleanups.push(() => void p0.socket.destroy());
    p0.send(helloFrame(0, 'p0-session'));
    await until(() => t.isConnected(0), 'P0 admitted through its reserved slot');
    expect(t.stats.unauthenticated).toMatchObject({ admitted: 4, reserved: 1, authenticated: 1, open: 4 });
    // The refused ones and the idle intruders are closed after unauthenticatedTimeoutMs; the
    // idle ones are counted as handshake timeouts.
    for (const s of [third, fifth, ...a, ...b]) expect(await closedWithin(s, 3_000)).toBe(true);
    await until(() => t.stats.unauthenticated.open === 0, 'slots freed');
    expect(t.stats.refused['handshake-timeout']).toBe(4);
    expect(t.stats.unauthenticated.peak).toBe(5);
    expect(t.isConnected(0)).toBe(true);
  });

  it('a socket reset before it was admitted (no address left) takes no slot, and no slot leaks', () => {
    const ctx = new TransportContext(
      resolveOptions({
        self: 1,
        peers: [0, 1].map((id) => ({ id, host: '127.0.0.1', port: 7000 + id })),
        insecure: true,
        logger: null,
        maxUnauthenticated: 2,
        reservedPeerSlots: 0,
      }),
    );
    const admission = new Admission(ctx);
    const fake = (remoteAddress: string | undefined, remotePort: number | undefined) => {
      const socket = Object.assign(new EventEmitter(), {
        remoteAddress,
        remotePort,
        destroyed: false,
        pause() {},
        destroy() {
          socket.destroyed = true;
          socket.emit('close');
        },
      });
      return socket as unknown as net.Socket;
    };
    const dead = [fake(undefined, undefined), fake(undefined, undefined)];
    expect(dead.map((s) => admission.admit(s))).toEqual([false, false]);
    expect(dead.every((s) => s.destroyed)).toBe(true);
    expect(ctx.stats.unauthenticated.open).toBe(0);
    // Both general slots are still free.
    const live = [fake('10.0.0.1', 1), fake('10.0.0.2', 2)];
    expect(live.map((s) => admission.admit(s))).toEqual([true, true]);
    expect(admission.admit(fake('10.0.0.3', 3))).toBe(false); // now they are taken
    expect(ctx.stats.refused.capacity).toBe(1);
    admission.close();
    expect(ctx.stats.unauthenticated.open).toBe(0);
  });

  it('refused connections are held unread up to 4× the slots, beyond that (or from a peer address) closed at once', () => {
    const ctx = new TransportContext(
      resolveOptions({
        self: 1,
        peers: [0, 1].map((id) => ({ id, host: '127.0.0.1', port: 7000 + id })),
        insecure: true,
        logger: null,
        maxUnauthenticated: 1,
        reservedPeerSlots: 0,
      }),
    );
    const admission = new Admission(ctx);
    const sockets = Array.from({ length: 8 }, (_, i) => {
      const socket = Object.assign(new EventEmitter(), {
        // The second one is from P0's address: refused (no reserved slot) and closed at once.
        remoteAddress: i === 1 ? '127.0.0.1' : `10.0.0.${i + 1}`,
        remotePort: 1,
        destroyed: false,
        paused: false,
        pause() {
          socket.paused = true;
        },
        destroy() {
          socket.destroyed = true;
          socket.emit('close');
        },
      });
      return socket;
    });
    expect(sockets.map((s) => admission.admit(s as unknown as net.Socket))).toEqual([
      true,
      ...new Array(7).fill(false),
    ]);
    // One admitted; P0's closed at once; four refused and held, paused (1 slot × 4); the last
    // two closed at once.
    expect(sockets.map((s) => s.destroyed)).toEqual([false, true, false, false, false, false, true, true]);
    expect(sockets.slice(2, 6).every((s) => s.paused)).toBe(true);
    expect(ctx.stats.refused.capacity).toBe(7);
    admission.close();
    expect(sockets.every((s) => s.destroyed)).toBe(true);
  });

  it('rejects bad admission settings with a ConfigurationError naming the value', async () => {
    const { tcpTransport } = await import('../src/index.js');
    const base = { self: 0, peers: [{ id: 0, host: '127.0.0.1', port: 1 }], insecure: true, logger: null };
    const cases: [Record<string, unknown>, RegExp][] = [
      [
        { unauthenticatedTimeoutMs: 0 },
        /unauthenticatedTimeoutMs must be > 0 and ≤ handshakeTimeoutMs \(5000\), got 0/,
      ],
      [{ unauthenticatedTimeoutMs: Number.NaN }, /unauthenticatedTimeoutMs .* got NaN/],
      [{ unauthenticatedTimeoutMs: 6_000 }, /unauthenticatedTimeoutMs .* got 6000/],
      [{ unauthenticatedTimeoutMs: '100' }, /unauthenticatedTimeoutMs .* got "100"/],
      [{ maxUnauthenticated: 0 }, /maxUnauthenticated must be an integer ≥ 1, got 0/],
      [{ maxUnauthenticated: 2.5 }, /maxUnauthenticated must be an integer ≥ 1, got 2.5/],
      [{ maxUnauthenticatedPerSource: -1 }, /maxUnauthenticatedPerSource must be an integer ≥ 1, got -1/],
      [{ reservedPeerSlots: -1 }, /reservedPeerSlots must be an integer ≥ 0, got -1/],
      [
        { reservedPeerSlots: Number.POSITIVE_INFINITY },
        /reservedPeerSlots must be an integer ≥ 0, got Infinity/,
      ],
    ];
    for (const [extra, message] of cases) {
      expect(() => tcpTransport({ ...base, ...extra } as never)).toThrow(
        expect.objectContaining({ name: 'ConfigurationError', message: expect.stringMatching(message) }),
      );
    }
    // A short handshakeTimeoutMs lowers the default pre-handshake timeout instead of failing.
    expect(() => tcpTransport({ ...base, handshakeTimeoutMs: 300 })).not.toThrow();
  });
});

describe('before authentication a connection learns nothing and causes no error events', () => {
  /** P2 listening (P0 and P1 dial it); the test plays intruders. */
  async function p2(): Promise<Awaited<ReturnType<typeof lone>> & { errors: Error[] }> {
    const l = await lone(2, 3);
    cleanups.push(() => l.t.close());
    const errors: Error[] = [];
    l.t.on('error', (e) => errors.push(e));
    return { ...l, errors };
  }

  async function refusal(c: RawConn): Promise<unknown[]> {
    await c.closed;
    return c.frames;
  }

  it('refusals before authentication say only "connection refused"; the detail stays in the local log and stats', async () => {
    const { t, peers, certs, logger } = await p2();
    const port = peers[2]!.port;
    // A cluster certificate for a process that is not a peer (P5).
    const stranger = await rawConnect(port, { ca: certs.ca, ...certs.processes[5]! });
    stranger.send(helloFrame(5, 'stranger'));
    expect(await refusal(stranger)).toEqual([{ t: 'refuse', reason: 'connection refused' }]);
    // P1's certificate, claiming P0.
    const liar = await rawConnect(port, { ca: certs.ca, ...certs.processes[1]! });
    liar.send(helloFrame(0, 'liar'));
    expect(await refusal(liar)).toEqual([{ t: 'refuse', reason: 'connection refused' }]);
    // Not a hello at all.
    const rude = await rawConnect(port, { ca: certs.ca, ...certs.processes[1]! });
    rude.send({ t: 'data', seq: 1, p: {} });
    expect(await refusal(rude)).toEqual([{ t: 'refuse', reason: 'connection refused' }]);
    expect(t.stats.refused['unknown-peer']).toBe(1);
    expect(t.stats.refused['wrong-id']).toBe(1);
    expect(t.stats.refused['bad-hello']).toBe(1);
    expect(logger.lines.some((l) => /P5 is not a peer of P2 \(peers: 0, 1, 2\)/.test(l))).toBe(true);
    expect(logger.lines.some((l) => /the hello claims P0, but the certificate names P1/.test(l))).toBe(true);
  });

  it('an authenticated peer refused by the session layer is told why, without any session id', async () => {
    const { t, peers, certs } = await p2();
    const port = peers[2]!.port;
    const first = await rawConnect(port, { ca: certs.ca, ...certs.processes[0]! });
    first.send(helloFrame(0, 'first-incarnation-0123'));
    await until(() => t.isConnected(0), 'P0 connected');
    first.socket.destroy();
    await until(() => !t.isConnected(0), 'P0 gone');
    const second = await rawConnect(port, { ca: certs.ca, ...certs.processes[0]! });
    second.send(helloFrame(0, 'second-incarnation-4567'));
    const frames = (await refusal(second)) as { t: string; reason: string }[];
    expect(frames).toHaveLength(1);
    expect(frames[0]!.reason).toMatch(/^the peer restarted and lost its state; .* assume no crashes/);
    const own = t.session;
    for (const secret of ['first-incarnation-0123', 'second-incarnation-4567', own])
      expect(frames[0]!.reason).not.toContain(secret);
    expect(t.stats.refused['peer-restarted']).toBe(1);
  });

  it('a refuse frame before the hello is counted and dropped: no error event per frame, a bounded log', async () => {
    const { t, peers, certs, logger, errors } = await p2();
    const port = peers[2]!.port;
    const linesBefore = logger.lines.length;
    const started = performance.now();
    for (let i = 0; i < 30; i++) {
      const c = await rawConnect(port, { ca: certs.ca, ...certs.processes[i % 2]! });
      c.send({ t: 'refuse', reason: `junk ${i}` });
      await c.closed;
    }
    expect(errors).toEqual([]);
    expect(t.stats.unauthenticated.junkFrames).toBe(30);
    expect(t.stats.refused['refused-by-peer']).toBe(0);
    // a burst of 10, then at most one a second: the bound follows the time the 30 frames took (a
    // loaded machine takes longer); on a quiet machine, 12 lines for 30 frames
    const seconds = Math.ceil((performance.now() - started) / 1_000);
    expect(logger.lines.length - linesBefore).toBeLessThanOrEqual(10 + seconds + 1);
    expect(logger.lines.some((l) => /junk/.test(l))).toBe(false); // the sender's text is not logged
  });
});
