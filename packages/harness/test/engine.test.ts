import { AbortError, type CSState, type Endpoint, type Message, type ProcessId } from '@critsec/core';
import { createRng } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import {
  chooseMove,
  type InvocationRecord,
  MessageAttribution,
  WorkloadEngine,
  type WorkloadProcess,
  wallClock,
} from '../src/index.js';

/** An in-memory lock shared by `n` processes (FIFO grants), with the workload's view of each process. */
function lockCluster(n: number, opts: { neverGrant?: boolean } = {}) {
  const states: CSState[] = new Array(n).fill('OutCS');
  const pending: ('entry' | 'exit' | null)[] = new Array(n).fill(null);
  let holder: ProcessId | null = null;
  let maxIn = 0;
  const queue: { id: ProcessId; grant: () => void }[] = [];
  const grantNext = () => {
    const next = queue.shift();
    if (next !== undefined) next.grant();
  };
  const invoke = (rec: InvocationRecord, signal: AbortSignal | undefined): Promise<void> => {
    const id = rec.process;
    pending[id] = rec.op;
    if (rec.op === 'exit') {
      states[id] = 'OutCS';
      pending[id] = null;
      holder = null;
      grantNext();
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter = {
        id,
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          holder = id;
          states[id] = 'InCS';
          pending[id] = null;
          maxIn = Math.max(maxIn, states.filter((s) => s === 'InCS').length);
          resolve();
        },
      };
      const onAbort = () => {
        queue.splice(queue.indexOf(waiter), 1);
        pending[id] = null;
        reject(new AbortError());
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      if (holder === null && !opts.neverGrant) waiter.grant();
      else queue.push(waiter);
    });
  };
  const processes: WorkloadProcess[] = Array.from({ length: n }, (_, id) => ({
    id,
    state: () => states[id]!,
    pending: () => pending[id]!,
    rng: createRng(id + 1),
  }));
  return { processes, invoke, maxInCS: () => maxIn };
}

describe('WorkloadEngine on the wall clock', () => {
  it('every process completes its rounds; finished processes cycle, uncounted, until all have finished', async () => {
    const c = lockCluster(3);
    const progress: number[] = [];
    const finished: ProcessId[] = [];
    const e = new WorkloadEngine(c.processes, {
      clock: wallClock(),
      rounds: 3,
      think: 0.5,
      hold: 0.5,
      invoke: c.invoke,
      onProgress: (done) => progress.push(done),
      onProcessFinished: (id) => finished.push(id),
      withdraw: true,
    });
    await e.runConcurrent();
    expect(e.failure).toBeNull();
    expect(e.completed).toBe(18);
    expect(progress).toEqual(Array.from({ length: 18 }, (_, i) => i + 1));
    expect([...finished].sort()).toEqual([0, 1, 2]);
    expect(e.stuck()).toEqual([]);
    expect(c.maxInCS()).toBe(1);
    const counted = e.records.filter((r) => !r.extra);
    expect(counted.every((r) => r.end >= r.start)).toBe(true);
    expect(e.records.filter((r) => r.extra).length).toBe(e.extraCalls + e.withdrawn);
  });

  it('aborts a fraction of entries and exits, and retries them', async () => {
    const c = lockCluster(3);
    const e = new WorkloadEngine(c.processes, {
      clock: wallClock(),
      rounds: 4,
      think: 0.5,
      hold: 2,
      abort: { probability: 0.5, within: 1, exits: true },
      invoke: c.invoke,
      withdraw: true,
    });
    await e.runConcurrent();
    expect(e.failure).toBeNull();
    expect(e.completed).toBe(24);
    expect(e.records.some((r) => r.aborted && r.op === 'entry')).toBe(true);
  });

  it('gives up: every call is withdrawn, the failure and the stuck processes are reported', async () => {
    const c = lockCluster(2, { neverGrant: true });
    const e = new WorkloadEngine(c.processes, {
      clock: wallClock(),
      rounds: 1,
      invoke: c.invoke,
      withdraw: true,
    });
    const run = e.runConcurrent();
    setTimeout(() => e.giveUp('timed out'), 30);
    await run;
    expect(e.failure).toBe('timed out');
    expect(e.withdrawn).toBe(2);
    expect(e.stuck().map((s) => [s.process, s.state, s.done])).toEqual([
      [0, 'OutCS', 0],
      [1, 'OutCS', 0],
    ]);
  });

  it('with allFinished, a process keeps cycling after its own rounds until the promise resolves', async () => {
    const c = lockCluster(1);
    let release!: () => void;
    const all = new Promise<void>((r) => {
      release = r;
    });
    const e = new WorkloadEngine(c.processes, {
      clock: wallClock(),
      rounds: 1,
      think: 0.2,
      hold: 0.2,
      invoke: c.invoke,
      allFinished: all,
      withdraw: true,
      onProcessFinished: () => setTimeout(release, 20),
    });
    await e.runConcurrent();
    expect(e.completed).toBe(2);
    expect(e.extraCalls).toBeGreaterThan(0);
  });
});

describe('chooseMove', () => {
  it('prefers counted moves, draws a request per candidate tried, and falls back to finished processes', () => {
    const tried: number[] = [];
    const move = chooseMove({
      ids: [0, 1, 2],
      counted: (i) => i !== 2,
      rng: createRng(5),
      nextOp: () => 'entry',
      drawRequest: (i) => {
        tried.push(i);
        return i;
      },
      allowed: (i) => i === 2,
    });
    expect(move).toEqual({ process: 2, op: 'entry', request: 2, counted: false });
    expect([...tried.slice(0, 2)].sort()).toEqual([0, 1]);
    expect(
      chooseMove({
        ids: [0],
        counted: () => true,
        rng: createRng(1),
        nextOp: () => 'exit',
        drawRequest: () => 0,
        allowed: () => false,
      }),
    ).toBeUndefined();
  });
});

/** Two endpoints joined in memory (delivery on a microtask), with channels. */
function memoryPair(): [Endpoint, Endpoint] {
  const handlers = new Map<string, ((from: ProcessId, msg: Message) => void)[]>();
  const make = (self: ProcessId, path: string): Endpoint => ({
    self,
    peers: [0, 1],
    path,
    send: (to, msg) =>
      queueMicrotask(() => {
        for (const h of handlers.get(`${to}/${path}`) ?? []) h(self, msg);
      }),
    onMessage: (fn) => {
      const key = `${self}/${path}`;
      handlers.set(key, [...(handlers.get(key) ?? []), fn]);
      return () => {};
    },
    channel: (name) => make(self, path === '' ? name : `${path}/${name}`),
  });
  return [make(0, ''), make(1, '')];
}

describe('MessageAttribution (envelope carrier)', () => {
  it('charges a chain of messages across processes to the invocation that started it', async () => {
    const [raw0, raw1] = memoryPair();
    const a0 = new MessageAttribution();
    const a1 = new MessageAttribution();
    const e0 = a0.endpoint(raw0);
    const e1 = a1.endpoint(raw1).channel('mx');
    const got: Message[] = [];
    e1.onMessage((from, msg) => {
      got.push(msg);
      if (msg.type === 'PING') e1.send(from, { type: 'PONG' });
    });
    e0.channel('mx').onMessage((_from, msg) => got.push(msg));
    const charged: string[] = [];
    a1.onCharge((key, to, msg) => charged.push(`${key}->P${to} ${msg.type}`));
    a0.run('0:1:entry', () => e0.channel('mx').send(1, { type: 'PING', x: 1 }));
    await new Promise((r) => setTimeout(r, 5));
    expect(got).toEqual([{ type: 'PING', x: 1 }, { type: 'PONG' }]);
    expect(charged).toEqual(['0:1:entry->P0 PONG']);
    expect([a0.sent, a0.delivered, a1.sent, a1.delivered]).toEqual([1, 1, 1, 1]);
    expect(Object.fromEntries(a0.byType)).toEqual({ 'mx PING': 1 });
    expect(Object.fromEntries(a1.byKey)).toEqual({ '0:1:entry': 1 });
    // a message from an endpoint that does not wrap is handed over as it is
    raw0.channel('mx').send(1, { type: 'PING' });
    await new Promise((r) => setTimeout(r, 5));
    expect(got.at(-2)).toEqual({ type: 'PING' });
    expect(a1.byKey.get('0:1:entry')).toBe(1);
  });
});
