/**
 * `onPeerRestart: 'resume'` (issue 27): a durable transport acknowledges only what its owner
 * committed, writes a message's frame only once the commit covering it resolved, and a transport
 * rebuilt from its committed state (`state`) resumes every session under the same session id:
 * what was committed but never written is resent, what was delivered but never committed is
 * received again, nothing twice. Over real sockets; the crash is in-process (every connection
 * destroyed and the transport closed in one turn: no `bye`, nothing more written).
 */
import { ConfigurationError, type Message, type ProcessId, TransportError } from '@critsec/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type TcpCommitPoint,
  type TcpDurableState,
  type TcpTransport,
  type TcpTransportOptions,
  tcpTransport,
} from '../src/index.js';
import { freeLoopbackPorts } from '../src/setup.js';
import { collectWarnings, devCerts, until } from './helpers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

/** A member's durable side in miniature: its committed record, and the commit it drives by hand. */
interface Durable {
  t: TcpTransport;
  got: Message[];
  /** The last committed state (JSON text, as a store would hold it). */
  record: string;
  /** Stages now and commits: the record is durable, then the transport is told. */
  commit(): void;
  /** Stages now and makes the record durable, but "crashes" before telling the transport. */
  commitUnreleased(): void;
}

async function pair(): Promise<{
  mk: (self: ProcessId, state?: unknown, extra?: Partial<TcpTransportOptions>) => Durable;
}> {
  const certs = await devCerts();
  const ports = await freeLoopbackPorts(2);
  const peers = ports.map((port, id) => ({ id, host: '127.0.0.1', port }));
  const mk = (self: ProcessId, state?: unknown, extra: Partial<TcpTransportOptions> = {}): Durable => {
    const t = tcpTransport({
      self,
      peers,
      tls: { ca: certs.ca, ...certs.processes[self]! },
      logger: collectWarnings(),
      onPeerRestart: 'resume',
      reconnect: { initialDelayMs: 5, maxDelayMs: 50 },
      lingerMs: 0,
      ...(state === undefined ? {} : { state }),
      ...extra,
    });
    cleanups.push(() => t.close());
    const d: Durable = {
      t,
      got: [],
      record: '',
      commit() {
        const { point, state: s } = t.durability!.stage();
        d.record = JSON.stringify(s);
        t.durability!.committed(point);
      },
      commitUnreleased() {
        d.record = JSON.stringify(t.durability!.stage().state);
      },
    };
    t.endpoint.onMessage((_from, m) => d.got.push(m));
    return d;
  };
  return { mk };
}

/** The in-process crash: every connection destroyed and the transport closed in the same turn. */
function crash(t: TcpTransport): Promise<void> {
  for (const p of t.endpoint.peers) if (p !== t.self) t.dropConnection(p);
  return t.close({ lingerMs: 0 });
}

describe("onPeerRestart: 'resume' — a durable transport", () => {
  it('writes a message only once the commit that covers it resolved, and acknowledges only what is committed', async () => {
    const { mk } = await pair();
    const a = mk(0);
    const b = mk(1);
    a.commit();
    b.commit();
    await Promise.all([a.t.start(), b.t.start()]);
    await a.t.ready();
    await b.t.ready();
    a.t.endpoint.send(1, { type: 'M', k: 1 });
    const point = a.t.durability!.stage().point;
    // Not written: B's session with A sees nothing until the commit resolves.
    a.t.endpoint.send(1, { type: 'M', k: 2 }); // after the stage: waits for the next commit
    expect(a.t.peerStats(1).session.sent).toBe(2);
    a.t.durability!.committed(point);
    await until(() => b.got.length === 1, 'the committed message at B');
    expect(b.got).toEqual([{ type: 'M', k: 1 }]);
    // B delivered it but has not committed: A's copy stays unacknowledged.
    expect(a.t.peerStats(1).unacked).toBe(2);
    a.commit();
    await until(() => b.got.length === 2, 'the second message at B');
    b.commit();
    await until(() => a.t.peerStats(1).unacked === 0, 'the acks of what B committed');
    expect(b.got).toEqual([
      { type: 'M', k: 1 },
      { type: 'M', k: 2 },
    ]);
    expect(a.t.peerStats(1).session.retransmitted).toBe(0); // released, not resent
  });

  it('a member rebuilt from its committed state resumes: committed-but-unsent messages leave, delivered-but-uncommitted ones come again, none twice', async () => {
    const { mk } = await pair();
    const a = mk(0);
    const b = mk(1);
    a.commit();
    b.commit();
    await Promise.all([a.t.start(), b.t.start()]);
    await a.t.ready();
    a.t.endpoint.send(1, { type: 'A', k: 1 });
    a.commit();
    await until(() => b.got.length === 1, 'A1 at B');
    b.commit();
    // A sends A2 and commits it, but is killed before it leaves.
    a.t.endpoint.send(1, { type: 'A', k: 2 });
    a.t.endpoint.send(0, { type: 'SELF', k: 1 }); // to itself, not handled before the crash
    a.commitUnreleased();
    // B sends B1; A delivers it but never commits it.
    b.t.endpoint.send(0, { type: 'B', k: 1 });
    b.commit();
    await until(() => a.got.some((m) => m.type === 'B'), 'B1 at A');
    const session = a.t.session;
    const record = a.record;
    await crash(a.t);
    // A restarts from its record: same session, B resumes.
    const a2 = mk(0, JSON.parse(record) as TcpDurableState);
    expect(a2.t.session).toBe(session);
    const kinds: string[] = [];
    b.t.on('connected', ({ kind }) => kinds.push(kind));
    await a2.t.start();
    await until(() => b.got.length === 2, 'A2 at B, from the restored window');
    await until(() => a2.got.length === 2, 'B1 and the message to itself at the restored A');
    expect(b.got).toEqual([
      { type: 'A', k: 1 },
      { type: 'A', k: 2 },
    ]);
    expect(a2.got).toEqual([
      { type: 'SELF', k: 1 },
      { type: 'B', k: 1 },
    ]);
    expect(kinds).toContain('resumed');
    a2.commit();
    b.commit();
    await until(
      () => a2.t.peerStats(1).unacked === 0 && b.t.peerStats(0).unacked === 0,
      'everything acknowledged',
    );
    expect(b.got.length).toBe(2); // nothing twice
  });

  it('a member restarted without its state (a lost store) is refused, the reason naming the way out', async () => {
    const { mk } = await pair();
    const a = mk(0);
    const b = mk(1);
    a.commit();
    b.commit();
    await Promise.all([a.t.start(), b.t.start()]);
    await a.t.ready();
    await crash(a.t);
    const reasons: string[] = [];
    b.t.on('refused', (r) => reasons.push(r.detail));
    const fresh = mk(0); // a new session: it lost its state
    const errors: string[] = [];
    fresh.t.on('error', (e) => errors.push(e.message));
    fresh.commit();
    await fresh.t.start();
    await until(() => b.t.stats.refused['peer-restarted'] >= 1, 'the refusal at B');
    expect(reasons.join(' ')).toMatch(
      /restore the peer from its member's store \(the same session resumes\)/,
    );
    await until(() => errors.length > 0, 'the refusal told to the fresh member');
    expect(errors.join(' ')).toMatch(/restart it from its own store/);
  });

  it('checks a restored state before building anything', async () => {
    const { mk } = await pair();
    const a = mk(0);
    a.commit();
    const state = JSON.parse(a.record) as TcpDurableState;
    expect(() => mk(1, state)).toThrow(/belongs to P0, not P1/);
    expect(() => mk(0, { ...state, v: 2 })).toThrow(TransportError);
    expect(() => mk(0, { ...state, links: {} })).toThrow(/not for the peers \[1\]/);
    const badLink = { ...state, links: { 1: { ...state.links['1']!, session: 'other' } } };
    expect(() => mk(0, badLink)).toThrow(/belongs to session other/);
    expect(() => mk(0, { ...state, toSelf: [{ c: '', m: 3 }] })).toThrow(/malformed messages to itself/);
    expect(() => mk(0, state, { onPeerRestart: 'refuse' })).toThrow(ConfigurationError);
    expect(() => mk(0, state, { session: 'another' })).toThrow(/give no session with a state/);
    expect(() => a.t.durability!.committed({ links: new Map() } as TcpCommitPoint)).toThrow(
      /a point stage\(\) returned/,
    );
    expect(mk(0, undefined, { onPeerRestart: 'refuse' }).t.durability).toBeUndefined();
  });
});
