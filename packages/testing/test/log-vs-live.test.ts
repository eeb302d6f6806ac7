/*
 * The two ways of feeding the safety check agree: the live monitor of a simulated cluster (every
 * state change) and a LogMonitor fed the call log a real cluster would write (called / done /
 * aborted records around each call of the same workload engine, on the simulated clock).
 */
import { type CSFactory, globalSpec, isAbortError } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import {
  type CallLogRecord,
  callObject,
  checkCallLog,
  createCluster,
  objectProcess,
  simulatedClock,
  WorkloadEngine,
} from '@critsec/harness';
import { centralMutex, unsafeMutex } from '../src/index.js';

async function run(factory: CSFactory, seed: number) {
  const spec = globalSpec(0, 1, 4);
  const cluster = createCluster({ factory, spec, seed });
  const net = cluster.net;
  const log: CallLogRecord[] = [];
  const engine = new WorkloadEngine(
    cluster.objects.map((o, i) => objectProcess(o, net.rng(`workload/${i}`))),
    {
      clock: simulatedClock(net),
      rounds: 4,
      abort: { probability: 0.3, within: 2 },
      invoke: (rec, signal) => {
        log.push({ p: rec.process, e: `${rec.op}-called` });
        return callObject(cluster.objects[rec.process]!, rec, signal).then(
          () => void log.push({ p: rec.process, e: `${rec.op}-done` }),
          (err: unknown) => {
            if (isAbortError(err)) log.push({ p: rec.process, e: `${rec.op}-aborted` });
            throw err;
          },
        );
      },
      onAllFinished: () => net.stop(),
    },
  );
  void engine.runConcurrent();
  await net.run({ maxEvents: 100_000 });
  await cluster.close();
  return { live: cluster.monitor.violations, fromLog: checkCallLog(log, { spec }), engine };
}

describe('the safety check fed live and fed from a call log agree', () => {
  it('a correct mutex: no violation either way, every entry logged', async () => {
    for (const seed of [1, 2, 3]) {
      const r = await run(centralMutex(), seed);
      expect(r.engine.failure).toBeNull();
      expect(r.live).toEqual([]);
      expect(r.fromLog.ok).toBe(true);
      expect(r.fromLog.entries.every((e) => e >= 4)).toBe(true);
    }
  });

  it('a broken mutex: the live monitor and the log both prove the violation', async () => {
    const r = await run(unsafeMutex(), 1);
    expect(r.live.length).toBeGreaterThan(0);
    expect(r.fromLog.violations[0]).toMatchObject({ kind: 'upper', bound: 1 });
    expect(r.fromLog.violations[0]!.message).toMatch(/more than k = 1/);
  });
});
