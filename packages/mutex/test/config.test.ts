/**
 * Configuration errors, initial holders, and input validation at the message boundary.
 */
import { ConfigurationError, type CSState, mutexSpec, ProtocolError } from '@critsec/core';
import { type Coterie, grid, majority } from '@critsec/coteries';
import { createCluster, runWorkload } from '@critsec/harness';
import { csCompliance } from '@critsec/testing/cs';
import { SimNetwork } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { maekawa, maekawaProtocol, ricartAgrawala } from '../src/index.js';
import { inspectM } from './helpers.js';

describe('configuration', () => {
  it('maekawa() rejects a missing or malformed coterie, naming the valid constructions', () => {
    expect(() => maekawa({ coterie: undefined as unknown as Coterie })).toThrow(ConfigurationError);
    expect(() => maekawa(undefined as never)).toThrow(ConfigurationError); // no options at all
    expect(() => maekawa({ coterie: { n: 3 } as unknown as Coterie })).toThrow(/majority\(n\), grid\(n\)/);
  });

  it('a coterie for another n is rejected before any message is sent', () => {
    expect(() => createCluster({ factory: maekawa({ coterie: grid(9) }), spec: mutexSpec(4) })).toThrow(
      /coterie \(grid\) has n = 9 processes but the cluster has n = 4/,
    );
  });

  it('more than one process InCS initially is rejected by both factories', () => {
    const net = new SimNetwork({ n: 3 });
    const initial: CSState[] = ['InCS', 'InCS', 'OutCS'];
    const ctx = { id: 0, n: 3, endpoint: net.endpoint(0), initial };
    expect(() => maekawa({ coterie: majority(3) })(ctx)).toThrow(
      /at most one process InCS initially, got P0, P1/,
    );
    expect(() => ricartAgrawala()(ctx)).toThrow(ConfigurationError);
    expect(net.counters().sent).toBe(0);
  });

  it('an initial holder owns the locks of its quorum: arbiters start granted to it', () => {
    const coterie = grid(9);
    const initial: CSState[] = Array.from({ length: 9 }, (_, i) => (i === 4 ? 'InCS' : 'OutCS'));
    const cluster = createCluster({ factory: maekawa({ coterie }), spec: mutexSpec(9), initial });
    for (let k = 0; k < 9; k++) {
      expect(inspectM(cluster, k).arbiter.grantedTo).toBe(coterie.quorumOf(4).includes(k) ? 4 : -1);
    }
    expect(inspectM(cluster, 4).requester.locks).toEqual(coterie.quorumOf(4));
  });
});

describe('compliance with an initial holder', () => {
  const initial: CSState[] = ['OutCS', 'OutCS', 'OutCS', 'OutCS', 'InCS', 'OutCS', 'OutCS', 'OutCS', 'OutCS'];
  csCompliance({
    it,
    name: 'maekawa-grid-9-held-by-P4',
    factory: maekawa({ coterie: grid(9) }),
    spec: mutexSpec(9),
    initial,
    seeds: 100,
    abort: { seeds: 20 },
    traceDir: '.traces',
  });
  csCompliance({
    it,
    name: 'ricart-agrawala-9-held-by-P4',
    factory: ricartAgrawala(),
    spec: mutexSpec(9),
    initial,
    seeds: 100,
    abort: { seeds: 20 },
    traceDir: '.traces',
  });
});

describe('input validation: handlers never throw on bad input', () => {
  const bad: [string, unknown][] = [
    ['unknown type', { type: 'HELLO', req: 1, ts: 1 }],
    ['missing fields', { type: 'LOCKED' }],
    ['negative tag', { type: 'REQUEST', req: -1, ts: 0 }],
    ['non-integer clock', { type: 'RELEASE', req: 1, ts: 1.5 }],
    ['string tag', { type: 'INQUIRE', req: '1', ts: 1 }],
    ['not an object', 'LOCKED'],
  ];

  it('Maekawa drops malformed messages and messages from the wrong peers, reports them, and keeps working', async () => {
    const coterie = grid(4); // Q_0 = {0,1,2}; arbiter 0 serves P0, P1, P2
    const cluster = createCluster({ factory: maekawa({ coterie }), spec: mutexSpec(4) });
    const net = cluster.net;
    for (const [, msg] of bad) net.endpoint(1).send(0, msg as never);
    net.endpoint(3).send(0, { type: 'REQUEST', req: 1, ts: 1 }); // 0 ∉ Q_3
    net.endpoint(3).send(0, { type: 'LOCKED', req: 1, ts: 1 }); // 3 ∉ Q_0
    await net.run();
    expect(cluster.errors.map((e) => e.process)).toEqual(Array(bad.length + 2).fill(0));
    for (const { error } of cluster.errors) expect(error).toBeInstanceOf(ProtocolError);
    expect(cluster.errors[0]!.error.message).toMatch(/^maekawa: dropped invalid message from P1 /);
    expect(cluster.errors.at(-2)!.error.message).toMatch(
      /REQUEST from P3, whose quorum Q_3 does not contain P0/,
    );
    expect(cluster.errors.at(-1)!.error.message).toMatch(/LOCKED from P3, which is not in its quorum Q_0/);
    expect(inspectM(cluster, 0).arbiter).toEqual({
      grantedTo: -1,
      grantedReq: 0,
      inquired: false,
      queue: [],
      aside: [],
    });
    const r = await runWorkload(cluster, { kind: 'sequential', rounds: 2 });
    expect(r.ok, r.failure ?? '').toBe(true);
  });

  it('Ricart–Agrawala drops malformed messages, reports them, and keeps working', async () => {
    const cluster = createCluster({ factory: ricartAgrawala(), spec: mutexSpec(3) });
    const badRA: unknown[] = [
      { type: 'HELLO', ts: 1 },
      { type: 'REQUEST' },
      { type: 'REQUEST', ts: -1 },
      { type: 'REPLY', req: 1.5 },
      { type: 'REPLY', req: '1' },
      42,
    ];
    for (const msg of badRA) cluster.net.endpoint(1).send(0, msg as never);
    cluster.net.endpoint(1).send(0, { type: 'REPLY', req: 99 }); // stale: ignored, not an error
    await cluster.net.run();
    expect(cluster.errors).toHaveLength(badRA.length);
    for (const { error } of cluster.errors) expect(error).toBeInstanceOf(ProtocolError);
    const r = await runWorkload(cluster, { kind: 'sequential', rounds: 2 });
    expect(r.ok, r.failure ?? '').toBe(true);
  });

  it('the schema accepts exactly the six tagged message types', () => {
    for (const type of ['REQUEST', 'LOCKED', 'FAILED', 'INQUIRE', 'RELINQUISH', 'RELEASE']) {
      expect(maekawaProtocol.is({ type, req: 3, ts: 4 })).toBe(true);
    }
    for (const [label, msg] of bad) expect(maekawaProtocol.is(msg), label).toBe(false);
  });
});
