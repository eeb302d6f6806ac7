import { ConfigurationError, type Message, type ProcessId, TransportError } from '@critsec/core';
import { noProgressMs } from '@critsec/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type TcpTransport, tcpTransport } from '../src/index.js';
import { freeLoopbackPorts } from '../src/setup.js';
import { collectWarnings, devCerts, SeqChecker, startCluster, until } from './helpers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

describe('tcpTransport over mutual TLS on loopback', () => {
  it('gives every process an Endpoint: nested channels, self-sends, FIFO per (from, to, channel)', async () => {
    const c = await startCluster(3);
    cleanups.push(c.close);
    const checkers = c.transports.map((t) => new SeqChecker(t.self));
    const got: string[] = [];
    c.transports.forEach((t, i) => {
      t.endpoint.channel('a').onMessage(checkers[i]!.onMessage('a'));
      t.endpoint.channel('a').channel('b').onMessage(checkers[i]!.onMessage('a/b'));
      t.endpoint.onMessage((from, m) => got.push(`P${i}<-P${from}:${m.type}`));
    });
    expect(c.transports[0]!.endpoint.peers).toEqual([0, 1, 2]);
    const K = 300;
    for (let k = 0; k < K; k++) {
      for (const t of c.transports) {
        for (const to of [0, 1, 2]) {
          t.endpoint.channel('a').send(to, { type: 'SEQ', k });
          t.endpoint.channel('a').channel('b').send(to, { type: 'SEQ', k });
        }
      }
    }
    c.transports[2]!.endpoint.send(0, { type: 'ROOT' });
    await until(() => checkers.every((ch) => ch.received === 3 * 2 * K), 'all messages');
    await until(() => got.length === 1, 'root message');
    expect(got).toEqual(['P0<-P2:ROOT']);
    for (const ch of checkers) expect(ch.errors).toEqual([]);
    for (const t of c.transports) await t.flush({ timeoutMs: noProgressMs() });
    const s = c.transports[0]!.peerStats(1);
    expect(s.connected).toBe(true);
    expect(s.session.sent).toBe(2 * K);
    expect(s.session.delivered).toBe(2 * K);
    expect(s.session.duplicates).toBe(0);
    expect(s.unacked).toBe(0);
    expect(c.transports[0]!.stats.refused.tls).toBe(0);
  });

  it('acknowledges a request/reply exchange without ack frames: each reply and request carries the ack', async () => {
    // No heartbeat ping in the frame count, however slow the machine.
    const c = await startCluster(2, { heartbeatIntervalMs: 60_000, heartbeatTimeoutMs: 120_000 });
    cleanups.push(c.close);
    const [a, b] = c.transports as [TcpTransport, TcpTransport];
    b.endpoint.onMessage((from, m) => b.endpoint.send(from, { type: 'PONG', k: m.k }));
    let pongs = 0;
    let answered: (() => void) | undefined;
    a.endpoint.onMessage(() => {
      pongs++;
      answered?.();
    });
    const framesBefore = a.stats.framesOut + b.stats.framesOut;
    const ROUNDS = 200;
    for (let k = 0; k < ROUNDS; k++) {
      await new Promise<void>((resolve) => {
        answered = resolve;
        a.endpoint.send(1, { type: 'PING', k });
      });
    }
    expect(pongs).toBe(ROUNDS);
    // The replier answers in the handler of the request: its reply always carries the ack.
    expect(b.peerStats(0).session.acksSent).toBe(0);
    await a.flush({ timeoutMs: noProgressMs() });
    await b.flush({ timeoutMs: noProgressMs() }); // the last reply's ack: a delayed ack frame
    expect(b.peerStats(0).unacked).toBe(0);
    // Two data frames per round; an ack frame of a's only when its next request came too late.
    const acks = a.peerStats(1).session.acksSent;
    expect(acks).toBeGreaterThanOrEqual(1);
    expect(a.stats.framesOut + b.stats.framesOut - framesBefore).toBe(2 * ROUNDS + acks);
  });

  it('writes the ack it still owes when it closes: a peer waiting in flush() is not left waiting', async () => {
    const c = await startCluster(2);
    cleanups.push(c.close);
    const [a, b] = c.transports as [TcpTransport, TcpTransport];
    let closing: Promise<void> | undefined;
    b.endpoint.onMessage(() => {
      closing = b.close(); // within the handler: long before the delayed ack frame
    });
    a.endpoint.send(1, { type: 'LAST' });
    await until(() => closing !== undefined, 'the message');
    await a.flush({ timeoutMs: noProgressMs() });
    expect(a.peerStats(1).unacked).toBe(0);
    expect(b.peerStats(0).session.acksSent).toBe(1);
    await closing;
  });

  it('delivers a message to itself without serialising it (the object itself, later, in order)', async () => {
    const c = await startCluster(2);
    cleanups.push(c.close);
    const t = c.transports[0]!;
    const got: Message[] = [];
    t.endpoint.channel('x').onMessage((from, m) => {
      expect(from).toBe(0);
      got.push(m);
    });
    const first = { type: 'SELF', k: 1, n: 10n } as unknown as Message; // not JSON: never encoded
    const second = { type: 'SELF', k: 2 };
    t.endpoint.channel('x').send(0, first);
    t.endpoint.channel('x').send(0, second);
    expect(got).toEqual([]); // not synchronously
    const parses = t.stats.framesIn;
    await until(() => got.length === 2, 'self messages');
    expect(got[0]).toBe(first);
    expect(got[1]).toBe(second);
    expect(t.stats.framesIn).toBe(parses);
  });

  it('buffers messages sent before the peers are up and delivers them once connected', async () => {
    const certs = await devCerts();
    const ports = await freeLoopbackPorts(2);
    const peers = ports.map((port, id) => ({ id, host: '127.0.0.1', port }));
    const mk = (self: ProcessId) =>
      tcpTransport({
        self,
        peers,
        tls: { ca: certs.ca, ...certs.processes[self]! },
        logger: null,
        reconnect: { initialDelayMs: 5, maxDelayMs: 50 },
      });
    const a = mk(0);
    const b = mk(1);
    cleanups.push(
      () => a.close(),
      () => b.close(),
    );
    const got: Message[] = [];
    b.endpoint.onMessage((_f, m) => got.push(m));
    for (let k = 0; k < 10; k++) a.endpoint.send(1, { type: 'EARLY', k });
    await a.start(); // b is not listening yet: a retries with backoff
    await new Promise((r) => setTimeout(r, 50));
    await b.start();
    await until(() => got.length === 10, 'early messages');
    expect(got.map((m) => m.k)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('throws TransportError for unknown peers, oversized or unserialisable messages, and after close', async () => {
    const c = await startCluster(2, { maxFrameBytes: 1024 });
    cleanups.push(c.close);
    const ep = c.transports[0]!.endpoint;
    expect(() => ep.send(7, { type: 'X' })).toThrow(/unknown peer 7; the peers are \[0, 1\]/);
    expect(() => ep.send(1, { type: 'BIG', s: 'x'.repeat(2000) })).toThrow(
      /over the maximum frame size of 1024/,
    );
    expect(() => ep.send(1, { type: 'BAD', n: 10n } as unknown as Message)).toThrow(/not JSON-serializable/);
    await c.transports[0]!.close();
    expect(() => ep.send(1, { type: 'X' })).toThrow(TransportError);
  });

  it('rejects bad configurations with the offending value', async () => {
    const certs = await devCerts();
    const tls = { ca: certs.ca, ...certs.processes[0]! };
    const peers = [
      { id: 0, host: '127.0.0.1', port: 9000 },
      { id: 1, host: '127.0.0.1', port: 9001 },
    ];
    expect(() => tcpTransport({ self: 0, peers })).toThrow(/tls \{ ca, cert, key \} is required/);
    expect(() => tcpTransport({ self: 5, peers, tls })).toThrow(/self 5 is not among the peers \[0, 1\]/);
    expect(() => tcpTransport({ self: 0, peers: [...peers, { id: 1, host: 'x', port: 1 }], tls })).toThrow(
      ConfigurationError,
    );
    expect(() => tcpTransport({ self: 0, peers: [{ id: 0, host: '127.0.0.1', port: 70000 }], tls })).toThrow(
      /port must be in 1 … 65535/,
    );
    expect(() =>
      tcpTransport({ self: 0, peers: [...peers, { id: 2, host: '10.0.0.2', port: 9002 }], insecure: true }),
    ).toThrow(/insecure mode is for loopback demos only, but peer 2 is at 10.0.0.2/);
    expect(() =>
      tcpTransport({ self: 0, peers, tls, heartbeatIntervalMs: 100, heartbeatTimeoutMs: 50 }),
    ).toThrow(/heartbeatIntervalMs < heartbeatTimeoutMs/);
    expect(() => tcpTransport({ self: 0, peers, tls, maxFrameBytes: 10 })).toThrow(/maxFrameBytes/);
  });

  it('reports a port already in use as a TransportError at start()', async () => {
    const c = await startCluster(2);
    cleanups.push(c.close);
    const certs = await devCerts();
    const clash = tcpTransport({
      self: 0,
      peers: c.peers,
      tls: { ca: certs.ca, ...certs.processes[0]! },
      logger: null,
    });
    await expect(clash.start()).rejects.toThrow(/cannot listen on 127.0.0.1:\d+/);
    await clash.close();
  });

  it('insecure mode works on loopback and warns', async () => {
    const ports = await freeLoopbackPorts(2);
    const peers = ports.map((port, id) => ({ id, host: '127.0.0.1', port }));
    const logger = collectWarnings();
    const ts: TcpTransport[] = [0, 1].map((self) => tcpTransport({ self, peers, insecure: true, logger }));
    cleanups.push(() => Promise.all(ts.map((t) => t.close())).then(() => {}));
    await Promise.all(ts.map((t) => t.start()));
    const got: Message[] = [];
    ts[0]!.endpoint.onMessage((_f, m) => got.push(m));
    ts[1]!.endpoint.send(0, { type: 'HI' });
    await until(() => got.length === 1, 'insecure message');
    expect(logger.lines.some((l) => /insecure mode/.test(l))).toBe(true);
  });

  it('bounds the bytes queued per connection: writing pauses at maxBufferedBytes and resumes in order', async () => {
    const c = await startCluster(2, { maxBufferedBytes: 4096 });
    cleanups.push(c.close);
    const checker = new SeqChecker(1);
    c.transports[1]!.endpoint.onMessage(checker.onMessage(''));
    const pad = 'p'.repeat(300);
    let maxQueued = 0;
    for (let k = 0; k < 3000; k++) {
      c.transports[0]!.endpoint.send(1, { type: 'SEQ', k, pad });
      if (k % 100 === 99) await new Promise((r) => setImmediate(r));
    }
    const peer = c.transports[0]!.peerStats(1);
    maxQueued = Math.max(maxQueued, peer.unacked);
    await until(() => checker.received === 3000, 'all messages through a small write buffer');
    expect(checker.errors).toEqual([]);
    // Frames held back while the socket was full were written later from the session buffer.
    expect(c.transports[0]!.peerStats(1).session.retransmitted).toBeGreaterThan(0);
    expect(maxQueued).toBeGreaterThan(0);
  });

  it('heartbeats keep an idle connection up and emit connected/disconnected events', async () => {
    const c = await startCluster(2, { heartbeatIntervalMs: 20, heartbeatTimeoutMs: 200 });
    cleanups.push(c.close);
    const events: string[] = [];
    c.transports[1]!.on('disconnected', (e) => events.push(`down:${e.peer}`));
    c.transports[1]!.on('connected', (e) => events.push(`up:${e.peer}:${e.kind}`));
    await new Promise((r) => setTimeout(r, 400)); // idle for 2× the timeout
    expect(c.transports[0]!.stats.closed['heartbeat-timeout']).toBe(0);
    expect(c.transports[0]!.isConnected(1)).toBe(true);
    expect(c.transports[0]!.dropConnection(1)).toBe(true);
    await until(() => events.includes('up:0:resumed'), 'reconnection');
    expect(events[0]).toBe('down:0');
  });
});
