/**
 * Issue 15, the known faults of the transport, each pinned by a test: an unvalidated `session`,
 * close() during start(), partial frames that keep a silent peer "alive", peer ids ≥ 10⁹, a
 * drain poll that keeps the process alive, and pings and acks written past `maxBufferedBytes`.
 */
import { EventEmitter } from 'node:events';
import net from 'node:net';
import { ConfigurationError, TransportError } from '@critsec/core';
import { noProgressMs } from '@critsec/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Connection } from '../src/connection.js';
import { TransportContext } from '../src/context.js';
import { encodeFrame } from '../src/framing.js';
import { tcpTransport } from '../src/index.js';
import { createDevCertificates, freeLoopbackPorts, processIdFromSubjectAltName } from '../src/setup.js';
import { resolveOptions } from '../src/options.js';
import { Peer } from '../src/peer.js';
import { helloFrame, lone, rawConnect, sleep, startCluster, until } from './helpers.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

const loopback = (n: number) =>
  Array.from({ length: n }, (_, id) => ({ id, host: '127.0.0.1', port: 7000 + id }));

describe('configuration', () => {
  it('a bad session id is a ConfigurationError naming it, whatever the cluster size', () => {
    for (const n of [1, 2]) {
      const base = { self: 0, peers: loopback(n), insecure: true, logger: null };
      const bad: [unknown, RegExp][] = [
        ['', /session must be a string of 1 … 64 characters, got 0 characters/],
        ['x'.repeat(65), /session must be a string of 1 … 64 characters, got 65 characters/],
        [42, /session must be a string of 1 … 64 characters, got 42/],
        [null, /session must be a string of 1 … 64 characters, got null/],
      ];
      for (const [session, message] of bad) {
        let thrown: unknown;
        try {
          tcpTransport({ ...base, session } as never);
        } catch (err) {
          thrown = err;
        }
        expect(thrown, `session ${JSON.stringify(session)}, n = ${n}`).toBeInstanceOf(ConfigurationError);
        expect((thrown as Error).message).toMatch(message);
      }
      expect(tcpTransport({ ...base, session: 's'.repeat(64) }).session).toBe('s'.repeat(64));
    }
  });

  it('a bad onPeerRestart is a ConfigurationError naming it', () => {
    expect(() =>
      tcpTransport({
        self: 0,
        peers: loopback(2),
        insecure: true,
        logger: null,
        onPeerRestart: 'ignore' as never,
      }),
    ).toThrow(ConfigurationError);
  });
});

describe('lifecycle', () => {
  it('close() during start() leaves no heartbeat timer, no listener and no dialing behind', async () => {
    const setSpy = vi.spyOn(globalThis, 'setInterval');
    const clearSpy = vi.spyOn(globalThis, 'clearInterval');
    const ports = await freeLoopbackPorts(2);
    const peers = ports.map((port, id) => ({ id, host: '127.0.0.1', port }));
    // P1's address: whoever dials it is seen here.
    let dialed = 0;
    const watch = net.createServer((s) => {
      dialed++;
      s.destroy();
    });
    await new Promise<void>((r) => watch.listen(ports[1], '127.0.0.1', () => r()));
    cleanups.push(() => new Promise<void>((r) => watch.close(() => r())));
    const t = tcpTransport({ self: 0, peers, insecure: true, logger: null });
    const starting = t.start();
    await t.close();
    await starting;
    await sleep(100);
    const intervals = setSpy.mock.results.map((r) => r.value);
    const cleared = new Set(clearSpy.mock.calls.map((c) => c[0]));
    expect(intervals.filter((i) => !cleared.has(i))).toEqual([]);
    expect(dialed).toBe(0);
    const refused = await new Promise<boolean>((resolve) => {
      const s = net.connect({ host: '127.0.0.1', port: ports[0]! });
      s.once('connect', () => {
        s.destroy();
        resolve(false);
      });
      s.once('error', () => resolve(true));
    });
    expect(refused).toBe(true); // nobody listens on P0's port
  });
});

describe('bad arguments of ready() and flush()', () => {
  it('a timeout that is not a number of ms in [0, 2³¹ − 1] is a TransportError naming it', async () => {
    const t = tcpTransport({ self: 0, peers: loopback(2), insecure: true, logger: null });
    cleanups.push(() => t.close());
    const bad: [unknown, string][] = [
      [-5, '-5'],
      [Number.NaN, 'NaN'],
      [Number.POSITIVE_INFINITY, 'Infinity'],
      [2 ** 31, '2147483648'],
      ['10', '"10"'],
    ];
    for (const [timeoutMs, named] of bad) {
      for (const call of ['ready', 'flush'] as const) {
        const err = await t[call]({ timeoutMs } as never).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(TransportError);
        expect((err as Error).message).toBe(
          `${call}: timeoutMs must be a number of ms in [0, 2147483647], got ${named}`,
        );
      }
    }
  });
});

describe('liveness', () => {
  it('a peer trickling a partial frame is silent: the heartbeat timeout closes it', async () => {
    const { t, peers, certs } = await lone(1, 2, { heartbeatIntervalMs: 20, heartbeatTimeoutMs: 200 });
    cleanups.push(() => t.close());
    const slow = await rawConnect(peers[1]!.port, { ca: certs.ca, ...certs.processes[0]! });
    slow.send(helloFrame(0, 'slow-loris'));
    await until(() => t.isConnected(0), 'handshake');
    // A frame announced at 1,000 bytes, sent one byte every 20 ms: never complete.
    const frame = Buffer.concat([Buffer.from([0, 0, 0x03, 0xe8]), Buffer.alloc(1_000, 0x20)]);
    let i = 0;
    const drip = setInterval(() => slow.raw(frame.subarray(i, ++i)), 20);
    cleanups.push(() => clearInterval(drip));
    await until(() => slow.isClosed(), 'the slow peer closed');
    expect(t.stats.closed['heartbeat-timeout']).toBe(1);
  });
});

describe('process ids of 10⁹ and more', () => {
  it('are named by certificates and read back (up to 2⁵³ − 1)', () => {
    expect(processIdFromSubjectAltName('URI:critsec://process/1000000000')).toBe(1_000_000_000);
    expect(processIdFromSubjectAltName(`URI:critsec://process/${Number.MAX_SAFE_INTEGER}`)).toBe(
      Number.MAX_SAFE_INTEGER,
    );
    expect(typeof processIdFromSubjectAltName('URI:critsec://process/9007199254740992')).toBe('string');
    expect(typeof processIdFromSubjectAltName('URI:critsec://process/01')).toBe('string');
  });

  it('a cluster with process 1,000,000,000 connects over mutual TLS', async () => {
    const certs = await createDevCertificates([0, 1_000_000_000]);
    const ports = await freeLoopbackPorts(2);
    const peers = [0, 1_000_000_000].map((id, i) => ({ id, host: '127.0.0.1', port: ports[i]! }));
    const ts = certs.processes.map((p) =>
      tcpTransport({
        self: p.id,
        peers,
        tls: { ca: certs.ca, cert: p.cert, key: p.key },
        logger: null,
        reconnect: { initialDelayMs: 5, maxDelayMs: 50 },
      }),
    );
    cleanups.push(() => Promise.all(ts.map((t) => t.close())).then(() => {}));
    await Promise.all(ts.map((t) => t.start()));
    await Promise.all(ts.map((t) => t.ready({ timeoutMs: noProgressMs() })));
    expect(ts[0]!.isConnected(1_000_000_000)).toBe(true);
  });
});

/** Ref'd timers right now (an unref'd one does not keep the process alive). */
const refTimers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

describe('write back-pressure', () => {
  it('waiting for a socket to drain below maxBufferedBytes does not keep the process alive', async () => {
    const c = await startCluster(2, { maxBufferedBytes: 1024 });
    cleanups.push(c.close);
    const before = refTimers();
    // Within one turn the connection is corked: the queue passes 1 KiB and sending pauses.
    for (let k = 0; k < 50; k++) c.transports[0]!.endpoint.send(1, { type: 'BULK', k, s: 'x'.repeat(200) });
    expect(refTimers()).toBe(before);
    await c.transports[0]!.flush({ timeoutMs: noProgressMs() });
  });

  /** A connection of P1 carrying P0 over a fake socket whose queue length the test sets. */
  function fakeConnection() {
    const ctx = new TransportContext(
      resolveOptions({ self: 1, peers: loopback(2), insecure: true, logger: null, maxBufferedBytes: 1024 }),
    );
    const written: string[] = [];
    const socket = Object.assign(new EventEmitter(), {
      writableLength: 0,
      writableNeedDrain: false,
      destroyed: false,
      remoteAddress: '127.0.0.1',
      remotePort: 1,
      setNoDelay() {},
      cork() {},
      uncork() {},
      write(buf: Buffer) {
        written.push(buf.subarray(4).toString('utf8'));
        return true;
      },
      end() {},
      destroy() {
        socket.destroyed = true;
      },
    });
    const conn = new Connection<Peer>({
      ctx,
      registry: new Set(),
      socket: socket as unknown as net.Socket,
      outbound: false,
      peer: undefined,
      onHandshakeFrame: () => {},
    });
    const peer = new Peer(ctx, loopback(2)[0]!, { deliver: () => {}, dial: () => {}, gone: () => {} });
    conn.peer = peer;
    peer.attach(conn);
    cleanups.push(() => conn.destroy('test over'));
    return { socket, conn, written };
  }

  it('acks are not written while the socket queues over maxBufferedBytes; the owed ack follows the drain', async () => {
    const { socket, written } = fakeConnection();
    socket.writableLength = 5_000; // the peer does not read
    for (let seq = 1; seq <= 20; seq++)
      socket.emit('data', encodeFrame(JSON.stringify({ t: 'data', seq, p: { c: '', m: { type: 'A' } } })));
    expect(written.filter((f) => f.includes('"ack"'))).toEqual([]);
    socket.writableLength = 0;
    await until(() => written.length > 0, 'the owed ack');
    expect(written).toEqual(['{"t":"ack","ack":20}']);
  });

  it('pings are not written while the socket queues over maxBufferedBytes', () => {
    const { socket, conn, written } = fakeConnection();
    socket.writableLength = 5_000;
    conn.lastTx = performance.now() - 2_000;
    conn.heartbeat(performance.now());
    expect(written).toEqual([]);
    socket.writableLength = 0;
    conn.heartbeat(performance.now());
    expect(written).toEqual(['{"t":"ping"}']);
  });
});
