/*
 * MUTIN's protocol edges: messages no correct peer sends (dropped and reported, state untouched),
 * stale and unexpected replies, the phases `inspect()` reports at every step of an Exit(), the
 * rare-path marks, and the mx and close() diagnostics. Written against surviving mutants of
 * `npm run test:mutation` (README, "Tests"): the seeded suites never forge a message, nor read
 * `inspect()`, nor look at an error's text.
 */
import { AbortError, ConfigurationError, type CSState, globalSpec, ProtocolError } from '@critsec/core';
import { collectReached, type ReachCollector } from '@critsec/core/kit';
import { grid, majority } from '@critsec/coteries';
import { createCluster } from '@critsec/harness';
import { StubCS } from '@critsec/testing';
import { SimNetwork } from '@critsec/transport-sim';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MutinCS, mutin } from '../src/index.js';

let reached: ReachCollector;
beforeEach(() => {
  reached = collectReached();
});
afterEach(() => reached.stop());

type Phase = string;
const phaseOf = (p: MutinCS): Phase => (p.inspect!() as { phase: Phase }).phase;

function cluster(l: number, initial: CSState[]) {
  return createCluster({ factory: mutin({ l, coterie: majority(3) }), spec: globalSpec(l, 3, 3), initial });
}

/** Records `<type>@<phase>` of P0 at each message P0 sends. */
function tracePhases(c: ReturnType<typeof cluster>): string[] {
  const p0 = c.objects[0] as MutinCS;
  const seen: string[] = [];
  c.net.onSend((m) => {
    if (m.from === 0) seen.push(`${(m.msg as { type: string }).type}@${phaseOf(p0)}`);
  });
  return seen;
}

describe('messages no correct peer sends are dropped and reported', () => {
  const coterie = grid(9);
  const make = () =>
    createCluster({
      factory: mutin({ l: 1, coterie }),
      spec: globalSpec(1, 9, 9),
      initial: Array.from({ length: 9 }, (_, i): CSState => (i === 0 ? 'InCS' : 'OutCS')),
    });
  const Q0 = coterie.quorumOf(0);
  const outsider = Array.from({ length: 9 }, (_, i) => i).find(
    (i) => !Q0.includes(i) && !coterie.reportersOf(0).includes(i),
  )!;
  const member = Q0.find((i) => i !== 0)!;

  it.each([
    [{ type: 'Query', reqCnt: 1 }, `Query from P${outsider}, which is not in R_0`],
    [{ type: 'Ack' }, `Ack from P${outsider}, which is not in Q_0`],
    [{ type: 'Response1', procsInCS: [1], reqCnt: 0 }, `Response1 from P${outsider}, which is not in Q_0`],
  ])('%o from a process outside the quorums', async (msg, why) => {
    const c = make();
    const p0 = c.objects[0] as MutinCS;
    const sent: number[] = [];
    c.net.onSend((m) => sent.push(m.from));
    c.net.endpoint(outsider).send(0, msg);
    await c.net.run();
    expect(c.errors.map((e) => [e.process, e.error.message])).toEqual([[0, `mutin: dropped ${why}`]]);
    expect(c.errors[0]!.error).toBeInstanceOf(ProtocolError);
    expect((c.errors[0]!.error as ProtocolError).from).toBe(outsider);
    expect(sent).toEqual([outsider]); // P0 answered nothing
    expect(p0.currentInCS.size).toBe(0);
    expect(p0.ackFrom.size).toBe(0);
    expect(p0.responseAgainTo).toBeNull();
  });

  it('a Response naming a process ≥ n is dropped; naming n − 1 is not', async () => {
    const c = make();
    c.net.endpoint(member).send(0, { type: 'Response2', procsInCS: [9], reqCnt: 0 });
    c.net.endpoint(member).send(0, { type: 'Response1', procsInCS: [2, 8], reqCnt: 0 });
    await c.net.run();
    expect(c.errors.map((e) => e.error.message)).toEqual([
      `mutin: dropped Response2 from P${member} names process 9 (n = 9)`,
    ]);
    expect((c.objects[0] as MutinCS).currentInCS.size).toBe(2); // reqCnt 0 = P0's: merged
  });

  it('a malformed message is dropped by the protocol schema, named after MUTIN', async () => {
    const c = make();
    c.net.endpoint(member).send(0, { type: 'Query' });
    await c.net.run();
    expect(c.errors).toHaveLength(1);
    expect(c.errors[0]!.error.message).toMatch(/^mutin: dropped invalid message from P\d+ on /);
  });

  it('replies to a Query never made are withdrawn; an unasked Ack is answered with a Release (issue 27 §3)', async () => {
    const c = make();
    const p0 = c.objects[0] as MutinCS;
    c.net.endpoint(member).send(0, { type: 'Response1', procsInCS: [1, 2], reqCnt: 5 });
    c.net.endpoint(member).send(0, { type: 'Response2', procsInCS: [1, 2], reqCnt: 5 });
    for (const q of Q0) c.net.endpoint(q).send(0, { type: 'Ack' }); // a whole quorum of Acks, unasked
    const sent: string[] = []; // what P0 sends in answer
    c.net.onSend((m) => {
      if (m.from === 0) sent.push(`${JSON.stringify(m.msg)}>P${m.to}`);
    });
    await c.net.run();
    expect(c.errors).toEqual([]);
    expect(p0.currentInCS.size).toBe(0);
    expect(reached.counts.get('mutin:stale-response')).toBe(2);
    expect(p0.ackFrom.size).toBe(0);
    expect(p0.state).toBe('InCS');
    // reqCnt 5 > P0's 0: never made; each Ack: a member took an Acquire P0 (InCS, idle) never sent
    const release = Q0.map((q) => `{"type":"Release"}>P${q}`);
    const withdraw = `{"type":"Withdraw","reqCnt":5}>P${member}`;
    expect(sent.sort()).toEqual([withdraw, withdraw, ...release].sort());
  });
});

describe('inspect() and the rare-path marks along an Exit()', () => {
  it('a leaver unblocked by a Response2: every phase in order, then idle', async () => {
    const c = cluster(1, ['InCS', 'OutCS', 'OutCS']);
    const p0 = c.objects[0] as MutinCS;
    const seen = tracePhases(c);
    expect(phaseOf(p0)).toBe('idle');
    const exit = p0.exit();
    await c.net.run();
    const snapshot = p0.inspect!() as Record<string, unknown>;
    expect(Object.keys(snapshot).sort()).toEqual(
      [
        'ackFrom',
        'currentInCS',
        'mx',
        'pending',
        'phase',
        'procsInCS',
        'reqCnt',
        'respAgainReqCnt',
        'responseAgain',
        'responseAgainTo',
        'state',
      ].sort(),
    );
    expect(snapshot).toMatchObject({ state: 'InCS', pending: 'exit', phase: 'query', reqCnt: 1 });
    expect(snapshot.mx).toEqual((p0.mx as unknown as { inspect(): unknown }).inspect());
    expect(reached.counts.get('mutin:response2-unblocks')).toBeUndefined();
    await c.objects[1]!.entry(); // its Release makes Q_1's members answer P0 again
    await c.net.run();
    await exit;
    expect(p0.state).toBe('OutCS');
    expect(phaseOf(p0)).toBe('idle');
    expect(reached.counts.get('mutin:response2-sent')).toBeGreaterThan(0);
    expect(reached.counts.get('mutin:response2-unblocks')).toBe(1);
    const phases = [...new Set(seen.map((s) => s.split('@')[1]))];
    expect(phases).toEqual(['mx.Entry', 'query', 'acquire', 'mx.Exit']);
    for (const [type, phase] of [
      ['REQUEST', 'mx.Entry'],
      ['Query', 'query'],
      ['Acquire', 'acquire'],
      ['RELEASE', 'mx.Exit'],
    ]) {
      const sends = seen.filter((s) => s.startsWith(`${type}@`));
      expect(sends.length, type).toBeGreaterThan(0);
      expect(new Set(sends), type).toEqual(new Set([`${type}@${phase}`]));
    }
  });

  it('a leaver that Response1 already lets go: no Response2 mark', async () => {
    const c = cluster(1, ['InCS', 'InCS', 'OutCS']);
    const exit = c.objects[0]!.exit();
    await c.net.run();
    await exit;
    expect(c.objects[0]!.state).toBe('OutCS');
    expect(reached.counts.get('mutin:response2-unblocks')).toBeUndefined();
  });

  it('an abort while waiting for l+1: named, marked, mx released in phase mx.Exit, then idle', async () => {
    const c = cluster(1, ['InCS', 'OutCS', 'OutCS']);
    const p0 = c.objects[0] as MutinCS;
    const ac = new AbortController();
    const exit = p0.exit({ signal: ac.signal });
    await c.net.run();
    const seen = tracePhases(c);
    ac.abort('not now');
    await expect(exit).rejects.toThrow(/MUTIN Exit\(\)/);
    await c.net.run();
    expect(reached.counts.get('mutin:exit-aborted')).toBe(1);
    expect(seen.length).toBeGreaterThan(0);
    expect(new Set(seen.map((s) => s.split('@')[1]))).toEqual(new Set(['mx.Exit']));
    expect(phaseOf(p0)).toBe('idle');
  });

  it('an abort while waiting for mx leaves the phase idle', async () => {
    const c = cluster(2, ['InCS', 'InCS', 'OutCS']);
    const p0 = c.objects[0] as MutinCS;
    const e1 = c.objects[1]!.exit(); // holds mx, waits for a third process InCS
    await c.net.run();
    const ac = new AbortController();
    const e0 = p0.exit({ signal: ac.signal });
    await c.net.run();
    expect(phaseOf(p0)).toBe('mx.Entry');
    ac.abort();
    await expect(e0).rejects.toBeInstanceOf(AbortError);
    expect(phaseOf(p0)).toBe('idle');
    await c.objects[2]!.entry();
    await c.net.run();
    await e1;
  });
});

describe('close() during an Exit() says what the exit was waiting for', () => {
  it('waiting for l+1 processes InCS', async () => {
    const c = cluster(1, ['InCS', 'OutCS', 'OutCS']);
    const exit = c.objects[0]!.exit();
    await c.net.run();
    await c.objects[0]!.close();
    await expect(exit).rejects.toThrow('MUTIN closed while waiting for l+1 processes InCS');
  });

  it('waiting for the Acks', async () => {
    const c = cluster(1, ['InCS', 'InCS', 'OutCS']);
    const p0 = c.objects[0] as MutinCS;
    let closing: Promise<void> | undefined;
    c.net.onSend((m) => {
      if (m.from === 0 && (m.msg as { type: string }).type === 'Acquire') closing ??= p0.close();
    });
    const exit = p0.exit();
    const rejected = expect(exit).rejects.toThrow('MUTIN closed while waiting for Ack messages');
    await c.net.run();
    await closing;
    await rejected;
  });
});

describe('close() in the middle of an Exit() step', () => {
  it('between mx granted and the Query: the exit rejects at once, nothing is sent', async () => {
    const c = cluster(1, ['InCS', 'OutCS', 'OutCS']);
    const p0 = c.objects[0] as MutinCS;
    const queries: number[] = [];
    c.net.onSend((m) => {
      if ((m.msg as { type: string }).type === 'Query') queries.push(m.from);
    });
    p0.mx.on('statechange', (s) => {
      if (s === 'InCS') void p0.close(); // mx.entry() resolves, its continuation has not run yet
    });
    let outcome: unknown = 'pending';
    const exit = p0.exit().then(
      () => 'resolved',
      (e: unknown) => e,
    );
    void exit.then((o) => {
      outcome = o;
    });
    await c.net.run();
    await c.net.settle();
    expect(outcome).toBeInstanceOf(AbortError);
    expect((outcome as Error).message).toBe('MUTIN P0 was closed during Exit()');
    expect(queries).toEqual([]);
    expect(p0.reqCnt).toBe(0);
  });

  it('between two Query messages: the rest of the multicast is not sent', async () => {
    const c = cluster(1, ['InCS', 'OutCS', 'OutCS']);
    const p0 = c.objects[0] as MutinCS;
    const queries: number[] = [];
    c.net.onSend((m) => {
      if (m.from === 0 && (m.msg as { type: string }).type === 'Query') {
        queries.push(m.to);
        if (queries.length === 1) void p0.close();
      }
    });
    const exit = p0.exit().catch((e: unknown) => e);
    await c.net.run();
    expect(p0.Q.length).toBeGreaterThan(1);
    expect(queries).toHaveLength(1);
    expect(await exit).toBeInstanceOf(AbortError);
  });
});

describe('the mx object', () => {
  const ctx = (n = 3) => ({
    id: 0,
    n,
    endpoint: new SimNetwork({ n }).endpoint(0),
    initial: Array.from({ length: n }, (): CSState => 'InCS'),
  });

  it('must be made for this process: the message names what it made', () => {
    const wrong = mutin({ l: 0, coterie: majority(3), mx: (c) => new StubCS((c.id + 1) % c.n) });
    expect(() => wrong(ctx())).toThrow(
      new ConfigurationError(
        'mutin: mx must be a plain mutual exclusion factory (no request) that starts every process OutCS; ' +
          'for P0 it made P1 OutCS',
      ),
    );
  });

  it('must take no request: the message says so', () => {
    const units = mutin({
      l: 0,
      coterie: majority(3),
      mx: ((c: { id: number }) => new StubCS<number>(c.id, 'OutCS', { takesRequest: true })) as never,
    });
    expect(() => units(ctx())).toThrow(
      new ConfigurationError(
        'mutin: mx must be a plain mutual exclusion factory (no request) that starts every process OutCS; ' +
          'for P0 it made P0 OutCS taking a request',
      ),
    );
  });

  it('must start OutCS: the message names the state it made', () => {
    const inCS = mutin({ l: 0, coterie: majority(3), mx: (c) => new StubCS(c.id, 'InCS') });
    expect(() => inCS(ctx())).toThrow(
      new ConfigurationError(
        'mutin: mx must be a plain mutual exclusion factory (no request) that starts every process OutCS; ' +
          'for P0 it made P0 InCS',
      ),
    );
  });

  it("mx's error events are MUTIN's", () => {
    let made: StubCS | undefined;
    const p = mutin({
      l: 0,
      coterie: majority(3),
      mx: (c) => {
        made = new StubCS(c.id);
        return made;
      },
    })(ctx());
    const seen: Error[] = [];
    p.on('error', (e) => seen.push(e));
    const boom = new Error('mx broke');
    made!.fail(boom);
    expect(seen).toEqual([boom]);
  });

  it('inspect() lists the sets sorted', () => {
    const p0 = mutin({ l: 0, coterie: majority(3) })(ctx()) as MutinCS;
    p0.procsInCS.clear();
    for (const j of [2, 0, 1]) p0.procsInCS.add(j);
    p0.currentInCS = new Set([2, 1]);
    expect(p0.inspect!()).toMatchObject({ procsInCS: [0, 1, 2], currentInCS: [1, 2] });
  });

  it('without inspect(), MUTIN has none either (the explorer could not tell states apart)', () => {
    const p = mutin({ l: 0, coterie: majority(3), mx: (c) => new StubCS(c.id) })(ctx()) as MutinCS;
    expect(p.inspect).toBeUndefined();
    const withMaekawa = mutin({ l: 0, coterie: majority(3) })(ctx()) as MutinCS;
    expect(typeof withMaekawa.inspect).toBe('function');
  });

  it('a MutinCS made directly defaults to the live Response2 rule', () => {
    const p = new MutinCS(ctx(2), { l: 0, quorums: { Q: [0, 1], R: [0, 1] }, mx: (c) => new StubCS(c.id) });
    expect(p.response2).toBe('per-release');
  });
});
