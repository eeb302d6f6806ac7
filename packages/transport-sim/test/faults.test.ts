import type { Message } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import { exponentialDelay, SimNetwork, uniformDelay } from '../src/index.js';

describe('fault injection below the reliable session layer', () => {
  it('drop, duplicate and reorder raw frames; above the layer: in order, exactly once', async () => {
    let dropped = 0;
    let duplicated = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const net = new SimNetwork({
        n: 4,
        seed,
        delay: seed % 2 ? exponentialDelay(1) : uniformDelay(0, 3),
        faults: { drop: 0.25, duplicate: 0.2 },
      });
      const next = new Map<string, number>();
      const errors: string[] = [];
      for (let i = 0; i < 4; i++) {
        for (const ch of ['a', 'b']) {
          net
            .endpoint(i)
            .channel(ch)
            .onMessage((from, msg) => {
              const key = `${from}>${i}/${ch}`;
              const seq = (msg as Message & { seq: number }).seq;
              const want = next.get(key) ?? 0;
              if (seq !== want) errors.push(`${key}: got ${seq}, expected ${want}`);
              next.set(key, seq + 1);
            });
        }
      }
      const rng = net.rng('senders');
      const counters = new Map<string, number>();
      let sent = 0;
      for (let step = 0; step < 25; step++) {
        net.schedule(rng.next() * 20, () => {
          for (let k = 0; k < 4; k++) {
            const from = rng.int(4);
            const to = rng.int(4);
            const ch = rng.pick(['a', 'b']);
            const key = `${from}>${to}/${ch}`;
            const seq = counters.get(key) ?? 0;
            counters.set(key, seq + 1);
            net.endpoint(from).channel(ch).send(to, { type: 'M', seq });
            sent++;
          }
        });
      }
      await net.run({ maxEvents: 1_000_000 });
      expect(errors, `seed ${seed}`).toEqual([]);
      expect(net.counters().delivered, `seed ${seed}`).toBe(sent);
      for (const [key, count] of counters) expect(next.get(key), `seed ${seed} ${key}`).toBe(count);
      const f = net.faultCounters();
      dropped += f.framesDropped;
      duplicated += f.framesDuplicated;
      expect(f.retransmitted).toBeGreaterThanOrEqual(0);
    }
    expect(dropped).toBeGreaterThan(100);
    expect(duplicated).toBeGreaterThan(100);
  });

  it('is deterministic under faults', async () => {
    const traceOf = async () => {
      const net = new SimNetwork({
        n: 3,
        seed: 9,
        delay: exponentialDelay(1),
        faults: { drop: 0.3, duplicate: 0.3 },
        trace: true,
      });
      net.endpoint(2).onMessage((from, m) => net.endpoint(2).send(from, { type: 'ACK', of: m.type }));
      for (let k = 0; k < 30; k++) net.endpoint(k % 2).send(2, { type: `M${k}` });
      await net.run();
      return net.trace.join('\n');
    };
    expect(await traceOf()).toBe(await traceOf());
  });

  it('refuses bad fault options', () => {
    expect(() => new SimNetwork({ n: 2, faults: { drop: 1 } })).toThrow(/0 ≤ drop < 1/);
    expect(() => new SimNetwork({ n: 2, mode: 'controlled', faults: {} })).toThrow(/timed mode/);
  });
});
