import { describe, expect, it } from 'vitest';
import { mutexSpec } from '@critsec/core';
import { exponentialDelay, unitDelay } from '@critsec/transport-sim';
import { csCompliance, type CSComplianceSetup, type TestFn } from '../src/cs.js';
import { createCluster, runWorkload } from '@critsec/harness';
import {
  centralMutex,
  exploreSchedules,
  leakyAbortMutex,
  neverGrantMutex,
  StubCS,
  unsafeMutex,
} from '../src/index.js';

describe('the correct reference (central coordinator) passes the compliance suite', () => {
  csCompliance({ it, name: 'central-5', factory: centralMutex(), spec: mutexSpec(5), seeds: 300 });
  csCompliance({
    it,
    name: 'central-4-initially-held',
    factory: centralMutex(),
    spec: mutexSpec(4),
    initial: ['OutCS', 'OutCS', 'InCS', 'OutCS'],
    seeds: 100,
  });
});

describe('an object whose calls complete without waiting (n = 1) is judged fairly', () => {
  // with a single process, entering without asking anybody is correct mutual exclusion
  csCompliance({ it, name: 'alone', factory: unsafeMutex(), spec: mutexSpec(1), seeds: 20 });
});

/**
 * Collects the tests a suite registers for a 3-process mutex (traces under `.traces/selftest`),
 * so this file can run them: `find` a test by part of its name, or run it and get its `failure`.
 */
function collect(setup: Pick<CSComplianceSetup, 'name' | 'factory' | 'seeds'>) {
  const tests = new Map<string, () => Promise<void>>();
  const fakeIt: TestFn = (name, fn) => tests.set(name, fn);
  csCompliance({ ...setup, spec: mutexSpec(3), traceDir: '.traces/selftest', it: fakeIt });
  const find = (part: string) => {
    const entry = [...tests].find(([name]) => name.includes(part));
    if (entry === undefined) throw new Error(`no test named like '${part}'`);
    return entry[1];
  };
  const failure = async (part: string): Promise<Error> => {
    const err: unknown = await find(part)().then(
      () => null,
      (e: unknown) => e,
    );
    if (!(err instanceof Error)) throw new Error(`'${part}' did not fail with an Error: ${String(err)}`);
    return err;
  };
  return { tests, find, failure };
}

describe('the suite has teeth: broken objects fail it with a replayable seed', () => {
  it('an object that enters without asking fails safety, naming seed, step and trace', async () => {
    const { failure } = collect({ name: 'unsafe', factory: unsafeMutex(), seeds: 5 });
    const err = await failure('safety and liveness');
    expect(err.message).toMatch(/seed \d+/);
    expect(err.message).toMatch(/safety violated at state change \d+ .*2 processes InCS, more than k = 1/);
    expect(err.message).toMatch(/trace: .*unsafe-unit-seed\d+\.jsonl/);
  });

  it('the reported seed replays the same violation exactly', async () => {
    const { failure } = collect({ name: 'unsafe', factory: unsafeMutex(), seeds: 5 });
    const err = await failure('exponential');
    const seed = Number(/seed (\d+)/.exec(err.message)![1]);
    const runOnce = async () => {
      const cluster = createCluster({
        factory: unsafeMutex(),
        spec: mutexSpec(3),
        seed,
        delay: exponentialDelay(1),
        trace: true,
      });
      const r = await runWorkload(cluster, { rounds: 2 });
      return { v: r.violation, trace: cluster.net.trace.join('\n') };
    };
    const a = await runOnce();
    const b = await runOnce();
    expect(a.v).not.toBeNull();
    expect(a.v).toEqual(b.v);
    expect(a.trace).toBe(b.trace);
  });

  it('an object that never grants fails liveness and lists the stuck processes', async () => {
    const { failure } = collect({ name: 'never', factory: neverGrantMutex(), seeds: 2 });
    const err = await failure('safety and liveness');
    expect(err.message).toMatch(/seed 1/);
    expect(err.message).toMatch(
      /stuck: P0 OutCS waiting in entry\(\) after 0\/4 calls; P1 OutCS waiting in entry\(\)/,
    );
    const seq = await failure('sequential');
    expect(seq.message).toMatch(/did not complete although it was the only invocation/);
  });

  it('an object whose abort keeps its permission fails the abort test', async () => {
    const { find, failure } = collect({ name: 'leaky', factory: leakyAbortMutex(), seeds: 20 });
    await expect(find('safety and liveness')()).resolves.toBeUndefined();
    const err = await failure('aborted entries');
    expect(err.message).toMatch(/seed \d+ .*stuck: /);
  });
});

describe('metrics under the sequential workload are exact', () => {
  it('central mutex: 3 messages per pair, entry waits 2 time units, exit 0', async () => {
    const cluster = createCluster({ factory: centralMutex(), spec: mutexSpec(6), seed: 3, delay: unitDelay });
    const r = await runWorkload(cluster, { kind: 'sequential', rounds: 4 });
    expect(r.ok).toBe(true);
    expect(r.entries).toBe(24);
    expect(r.perPair).toMatchObject({ count: 24, mean: 3, max: 3, p99: 3 });
    expect(r.waiting.entry).toMatchObject({ mean: 2, max: 2 });
    expect(r.waiting.exit).toMatchObject({ mean: 0, max: 0 });
    expect(r.messages.byType).toEqual({ ' REQUEST': 24, ' GRANT': 24, ' RELEASE': 24 });
  });

  it('causal attribution gives per-pair counts under the concurrent workload', async () => {
    const cluster = createCluster({
      factory: centralMutex(),
      spec: mutexSpec(6),
      seed: 5,
      attribution: true,
    });
    const r = await runWorkload(cluster, { rounds: 3, think: 0.5, hold: 1 });
    expect(r.ok).toBe(true);
    expect(r.perPair.count).toBe(18);
    // every message is charged to exactly one invocation
    expect(r.records.reduce((sum, rec) => sum + rec.messages, 0)).toBe(r.messages.sent);
    // causal: the GRANT a RELEASE triggers belongs to the releasing pair, so a pair counts 2..4
    expect(r.perPair.max).toBe(4);
    expect(Math.min(...r.records.filter((x) => !x.extra && x.op === 'exit').map((x) => x.messages))).toBe(1);
    const plain = await runWorkload(createCluster({ factory: centralMutex(), spec: mutexSpec(6), seed: 5 }), {
      rounds: 3,
      think: 0.5,
      hold: 1,
    });
    // without attribution the mean is total / pairs: the unfinished extra cycles at the end add a little
    expect(plain.perPair.mean).toBeGreaterThanOrEqual(3);
    expect(plain.perPair.mean).toBeLessThan(3.5);
    expect(Number.isNaN(plain.perPair.max)).toBe(true);
  });
});

describe('faults below the session layer', () => {
  it('an algorithm runs unchanged: safe, live, same message count above the layer', async () => {
    for (let seed = 1; seed <= 50; seed++) {
      const cluster = createCluster({
        factory: centralMutex(),
        spec: mutexSpec(5),
        seed,
        delay: exponentialDelay(1),
        faults: { drop: 0.2, duplicate: 0.2 },
      });
      const r = await runWorkload(cluster, { kind: 'sequential', rounds: 2 });
      expect(r.ok, `seed ${seed}: ${r.failure}`).toBe(true);
      expect(r.perPair).toMatchObject({ mean: 3, max: 3 });
      expect(cluster.net.faultCounters().framesDropped).toBeGreaterThan(0);
    }
  });

  it('breaking FIFO (negative switch) is caught by the monitors of a FIFO-dependent protocol', async () => {
    // the central mutex relies on FIFO: a CANCEL overtaken by its own REQUEST leaves a ghost request queued
    let caught = 0;
    for (let seed = 1; seed <= 200 && caught === 0; seed++) {
      const cluster = createCluster({
        factory: centralMutex(),
        spec: mutexSpec(4),
        seed,
        delay: exponentialDelay(2),
        fifo: false,
      });
      const r = await runWorkload(cluster, { rounds: 3, abort: { probability: 0.5, within: 2 } });
      if (!r.ok) caught++;
    }
    expect(caught).toBeGreaterThan(0);
  });
});

describe('exhaustive exploration (controlled mode)', () => {
  it('central mutex, n = 3, 1 round: every schedule is safe and live', async () => {
    const r = await exploreSchedules({
      cluster: { factory: centralMutex(), spec: mutexSpec(3) },
      rounds: 1,
      maxSchedules: 100_000,
    });
    expect(r.failures).toEqual([]);
    expect(r.exhaustive).toBe(true);
    expect(r.schedules).toBeGreaterThan(100);
  });

  it('stops at a state or time budget and says it was not exhaustive', async () => {
    const r = await exploreSchedules({
      cluster: { factory: centralMutex(), spec: mutexSpec(3) },
      rounds: 1,
      maxStates: 50,
    });
    expect(r.exhaustive).toBe(false);
    expect(r.states).toBe(50);
  });

  it('finds the violation of the unsafe object and the deadlock of the silent one', async () => {
    const unsafe = await exploreSchedules({
      cluster: { factory: unsafeMutex(), spec: mutexSpec(2) },
      rounds: 1,
    });
    expect(unsafe.failures.some((f) => f.kind === 'violation')).toBe(true);
    const never = await exploreSchedules({
      cluster: { factory: neverGrantMutex(), spec: mutexSpec(2) },
      rounds: 1,
    });
    expect(never.failures.every((f) => f.kind === 'deadlock')).toBe(true);
    expect(never.failures.length).toBeGreaterThan(0);
  });
});

describe('StubCS, the stand-in for tests of wrappers and guards', () => {
  it('completes every call at once, takes a request when told, and emits what it is told to fail with', async () => {
    const plain = new StubCS(2);
    expect([plain.id, plain.state, plain.takesRequest]).toEqual([2, 'OutCS', false]);
    await plain.entry();
    expect(plain.state).toBe('InCS');
    await plain.exit();
    expect(plain.state).toBe('OutCS');
    const errors: Error[] = [];
    plain.on('error', (e) => errors.push(e));
    const boom = new Error('boom');
    plain.fail(boom);
    expect(errors).toEqual([boom]);
    const units = new StubCS<number>(0, 'InCS', { takesRequest: true });
    expect([units.state, units.takesRequest]).toEqual(['InCS', true]);
    await units.exit();
    await units.entry(3);
    expect(units.state).toBe('InCS');
  });
});
