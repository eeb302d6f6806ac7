/**
 * MUTIN over a time-bounded mx (issue 28, `src/mx-tenure.ts`, T1–T3): scripted runs over a stand-in
 * mx whose tenure the test sets. The GCS's seeded runs (`@critsec/gcs`, `test/ttl*.test.ts`) check
 * the rules under crashes, pauses and partitions.
 */
import {
  type CSFactory,
  CSObjectBase,
  type CSState,
  type ProcessContext,
  type Tenure,
  TenureExpiredError,
  AbortError,
  globalSpec,
} from '@critsec/core';
import { fromQuorums } from '@critsec/coteries';
import { maekawa } from '@critsec/mutex';
import { SimNetwork } from '@critsec/transport-sim';
import { createCluster } from '@critsec/harness';
import { describe, expect, it } from 'vitest';
import { type Mutin, mutin } from '../src/index.js';

/** A stand-in mx: grants at once (the test runs one leaver), with the tenure `remaining` says. */
class StandInMx extends CSObjectBase {
  constructor(
    ctx: ProcessContext,
    readonly remaining: { value: number },
  ) {
    super(ctx.id, 'OutCS');
  }
  tenure(): Tenure | undefined {
    if (this.state !== 'InCS') return undefined;
    const left = this.remaining.value;
    return { token: 1, signal: new AbortController().signal, remaining: () => left, check: () => {} };
  }
  protected async doEntry(): Promise<void> {}
  protected async doExit(): Promise<void> {}
  protected async doClose(): Promise<void> {}
}

// P0 and P1 ask {0, 1}, P2 asks {1, 2}: P0's own member knows P0 and P1 InCS (l + 1 = 2)
const coterie = fromQuorums(3, [
  [0, 1],
  [0, 1],
  [1, 2],
]);
const initial: CSState[] = ['InCS', 'InCS', 'OutCS'];

function run(remaining: { value: number }, slow01 = false) {
  const mx: CSFactory = (ctx) => new StandInMx(ctx, remaining);
  return createCluster({
    factory: mutin({ l: 1, coterie, mx, mxTenure: true }),
    spec: globalSpec(1, 3, 3),
    initial,
    ...(slow01
      ? {
          linkDelay: (a: number, b: number) =>
            a + b === 1 ? ({ kind: 'constant', delay: 10 } as const) : undefined,
        }
      : {}),
  });
}

describe('MUTIN with mxTenure', () => {
  it('T1–T2: an Exit() whose mx tenure lapsed by its last Ack is undone (Release, stays InCS), the next one commits', async () => {
    const remaining = { value: 0 };
    const c = run(remaining);
    const p0 = c.objects[0] as unknown as Mutin;
    const first = p0.exit().catch((e: unknown) => e);
    await c.net.run();
    expect(await first).toBeInstanceOf(TenureExpiredError);
    expect(p0.state).toBe('InCS');
    // the Release took the Acquire back: both members count P0 InCS again
    for (const m of [0, 1]) expect((c.objects[m] as unknown as Mutin).procsInCS.has(0)).toBe(true);
    remaining.value = Number.POSITIVE_INFINITY;
    await Promise.all([p0.exit(), c.net.run()]);
    expect(p0.state).toBe('OutCS');
    expect((c.objects[1] as unknown as Mutin).procsInCS.has(0)).toBe(false);
    expect(c.monitor.violations).toEqual([]);
    await c.close();
  });

  it('T2–T3: an aborted wait for Acks is undone, and the Ack owed to it is not taken for the next Acquire’s', async () => {
    const c = run({ value: Number.POSITIVE_INFINITY }, true); // P0 ↔ P1: 10 time units
    const p0 = c.objects[0] as unknown as Mutin;
    const ac = new AbortController();
    const first = p0.exit({ signal: ac.signal }).catch((e: unknown) => e);
    c.net.schedule(5, () => ac.abort(), 'abort'); // P0's Acquire reaches P1 at ~11, its Ack comes back at ~21
    await c.net.run({ until: 6 });
    expect(await first).toBeInstanceOf(AbortError);
    expect(p0.lateAcks.snapshot()).toEqual([1]);
    let doneAt = -1;
    const second = p0.exit().then(() => (doneAt = c.net.now));
    await c.net.run({ until: 24 });
    // the old Ack came at ~21 and was consumed: the new Acquire's Ack from P1 is still due
    expect(p0.state).toBe('InCS');
    expect(p0.lateAcks.snapshot()).toEqual([]);
    await Promise.all([second, c.net.run()]);
    expect(doneAt).toBeGreaterThan(24);
    expect(p0.state).toBe('OutCS');
    expect(c.monitor.violations).toEqual([]);
    await c.close();
  });

  it('T2 on recovery: an Exit() a crash cut in its Acquire round is undone by recover() (the grant’s age is unknown), not completed', async () => {
    const factory = mutin({ l: 1, coterie, mx: maekawa({ coterie, ttl: 50 }), mxTenure: true });
    const c = createCluster({
      factory,
      spec: globalSpec(1, 3, 3),
      initial,
      linkDelay: (a, b) => (a + b === 1 ? { kind: 'constant', delay: 10 } : undefined),
    });
    const p0 = c.objects[0] as unknown as Mutin;
    void p0.exit().catch(() => {});
    // P0 holds mx, its Acquire is out, P1's Ack not back yet (P0 ↔ P1 take 10 time units)
    for (let t = 1; t < 200 && p0.durableState!().phase !== 'acquire'; t++) await c.net.run({ until: t });
    const saved = p0.durableState!();
    expect(saved.phase).toBe('acquire');
    await c.close();
    const net = new SimNetwork({ n: 3 });
    const clock = {
      now: () => net.now,
      setTimer: (d: number, fn: () => void) => net.schedule(d, fn, 'timer'),
    };
    const back = factory({
      id: 0,
      n: 3,
      endpoint: net.endpoint(0),
      initial,
      recovered: saved,
      clock,
    }) as Mutin;
    const sent: string[] = [];
    net.onSend((m) => sent.push(`${m.to}:${(m.msg as { type: string }).type}`));
    await Promise.all([back.recover!(), net.run({ until: 5 })]);
    expect(back.state).toBe('InCS');
    expect(sent).toEqual(expect.arrayContaining(['0:Release', '1:Release']));
    expect(back.lateAcks.snapshot()).toEqual([0, 1].filter((j) => !saved.ackFrom.includes(j)));
    expect(back.durableState!().phase).toBe('idle');
    await back.close();
  });
});
