/**
 * Partitions and the failure detector of the simulator (issue 28 §4): messages across a cut wait
 * in their links, in order, until the heal; with `suspectAfter`, a crash-stopped process and one
 * cut off are suspected after that many time units and trusted again at the restart or heal;
 * seeded random partitions are reproducible and heal.
 */
import { ConfigurationError, type Message, type ProcessId } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import { SimNetwork, uniformDelay } from '../src/index.js';

const msg = (k: number): Message => ({ type: 'M', k });
const kOf = (m: Message) => (m as Message & { k: number }).k;

/** Every change of every process's suspicions, as `t P<i>: [ids]`. */
function watch(net: SimNetwork): string[] {
  const log: string[] = [];
  for (let i = 0; i < net.n; i++) {
    const s = net.endpoint(i).suspicions;
    s.onChange(() => log.push(`${net.now} P${i}: [${[...s.suspected()].sort().join(',')}]`));
  }
  return log;
}

describe('partitions', () => {
  it('messages across the cut wait in order and arrive at the heal; each side keeps talking', async () => {
    const net = new SimNetwork({ n: 3, delay: uniformDelay(0.5, 2), seed: 3 });
    const got: [ProcessId, number][] = [];
    for (const i of [1, 2]) net.endpoint(i).onMessage((_f, m) => got.push([i, kOf(m)]));
    net.partitions.cut([[0, 1]]); // {0, 1} | {2}
    for (let k = 1; k <= 3; k++) {
      net.endpoint(0).send(1, msg(k));
      net.endpoint(0).send(2, msg(10 + k));
    }
    await net.run();
    expect(got).toEqual([
      [1, 1],
      [1, 2],
      [1, 3],
    ]);
    expect(net.inFlight).toBe(3);
    net.partitions.heal();
    net.endpoint(0).send(2, msg(14)); // behind the waiting ones
    await net.run();
    expect(got.filter(([i]) => i === 2).map(([, k]) => k)).toEqual([11, 12, 13, 14]);
    expect(net.inFlight).toBe(0);
    expect(() => net.partitions.cut([[0], [0]])).toThrow(ConfigurationError);
    expect(() => net.partitions.cut([[3]])).toThrow(/no process 3/);
  });
});

describe('the failure detector (suspectAfter)', () => {
  it('a crash-stopped process is suspected by every other after suspectAfter, not before; trusted at its restart', async () => {
    const net = new SimNetwork({ n: 3, suspectAfter: 10 });
    const log = watch(net);
    net.schedule(5, () => net.crash(2));
    await net.run({ until: 14.5 });
    expect(log).toEqual([]);
    await net.run();
    expect(log).toEqual(['15 P0: [2]', '15 P1: [2]']);
    net.restart(2);
    expect(log.slice(2)).toEqual(['15 P0: []', '15 P1: []']);
    net.crash(0); // down and back within the timeout: never suspected
    net.schedule(9, () => net.restart(0));
    await net.run();
    expect(log).toHaveLength(4);
  });

  it('a crash or cut at an instant whose sum with suspectAfter rounds down is still suspected (no float miss)', async () => {
    // 15.393064538389405 + 2 − 15.393064538389405 = 1.9999999999999982 in floating point: the
    // check at the timer must compare with the deadline it was scheduled for, not the difference
    const t = 15.393064538389405;
    const net = new SimNetwork({ n: 3, suspectAfter: 2 });
    net.schedule(t, () => net.crash(2));
    net.schedule(t, () => net.partitions.cut([[1], [0, 2]]));
    await net.run({ until: t + 3 });
    expect([...net.endpoint(0).suspicions.suspected()].sort()).toEqual([1, 2]);
  });

  it('a restarted process hears at once whom it suspects', async () => {
    const net = new SimNetwork({ n: 3, suspectAfter: 1 });
    net.crash(1);
    net.crash(2);
    await net.run({ until: 2 });
    net.restart(2);
    expect([...net.endpoint(2).suspicions.suspected()]).toEqual([1]);
    expect([...net.endpoint(0).suspicions.suspected()]).toEqual([1]);
  });

  it('a partition makes both sides suspect each other after suspectAfter; the heal trusts them again', async () => {
    const net = new SimNetwork({ n: 3, suspectAfter: 4 });
    const log = watch(net);
    net.partitions.cut([[2]]);
    await net.run({ until: 3 });
    expect(log).toEqual([]);
    await net.run();
    expect(log).toEqual(['4 P0: [2]', '4 P1: [2]', '4 P2: [0]', '4 P2: [0,1]']); // one change per peer
    net.partitions.heal();
    expect(log.slice(4)).toEqual(['4 P0: []', '4 P1: []', '4 P2: [1]', '4 P2: []']);
  });

  it('seeded random partitions produce suspicions and heal, the same for the same seed; without suspectAfter, none', async () => {
    const run = async (seed: number, suspectAfter?: number) => {
      const net = new SimNetwork({
        n: 5,
        seed,
        trace: true,
        ...(suspectAfter === undefined ? {} : { suspectAfter }),
      });
      const log = watch(net);
      net.partitions.random({ count: 4, gap: 20, duration: 15 });
      await net.run();
      return { log, trace: net.trace, net };
    };
    const a = await run(11, 5);
    const b = await run(11, 5);
    expect(a.log).toEqual(b.log);
    expect(a.trace).toEqual(b.trace);
    expect(a.trace.filter((l) => l.includes('"partition":['))).toHaveLength(4);
    expect(a.log.length).toBeGreaterThanOrEqual(8); // 4 × (suspected, then trusted) on some process
    for (let i = 0; i < 5; i++) expect(a.net.endpoint(i).suspicions.suspected().size).toBe(0); // all healed
    expect((await run(12, 5)).trace).not.toEqual(a.trace);
    expect((await run(11)).log).toEqual([]);
    expect(() => new SimNetwork({ n: 2, suspectAfter: 0 })).toThrow(ConfigurationError);
    expect(() => a.net.partitions.random({ count: 0, gap: 1, duration: 1 })).toThrow(ConfigurationError);
  });
});
