import { createRng } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import type { MsgEvent, QueuedEvent, TimerEvent } from '../src/events.js';
import { Scheduler } from '../src/scheduler.js';

const message = (time: number, seq: number): MsgEvent => ({
  kind: 'message',
  time,
  seq,
  from: seq % 7,
  to: (seq * 3) % 7,
  channel: seq % 2 === 0 ? '' : 'mx',
  msg: { type: 'M', seq },
  ctx: seq % 3 === 0 ? undefined : { seq },
});
const timer = (time: number, seq: number): TimerEvent => ({
  kind: 'timer',
  time,
  seq,
  label: `t${seq}`,
  fn: () => {},
  ctx: undefined,
  cancelled: false,
});

/** An event as the receiver sees it (a lane message delivered by fields has no object). */
const seen = (e: QueuedEvent): string =>
  e.kind === 'timer'
    ? `timer ${e.label}`
    : e.kind === 'message'
      ? JSON.stringify([e.from, e.to, e.channel, e.msg, e.ctx])
      : 'frame';

/** Events taken out of a scheduler fed by a seeded mix of messages and timers, and pops. */
function drive(seed: number, constantShare: number) {
  const rng = createRng(seed);
  const s = new Scheduler();
  s.messagesInOrder();
  const queued: QueuedEvent[] = [];
  const popped: QueuedEvent[] = [];
  const sizes: number[] = [];
  let seq = 0;
  for (let step = 0; step < 20_000; step++) {
    if (rng.next() < 0.45) {
      // a message under a constant delay (in order), else a drawn delay; or a timer
      const r = rng.next();
      const delay = r < constantShare ? 1 : Math.floor(rng.next() * 5);
      const e = rng.next() < 0.8 ? message(s.now + delay, seq++) : timer(s.now + delay, seq++);
      queued.push(e);
      s.push(e);
    } else if (s.size > 0) {
      const t = s.nextTime();
      const e = s.pop()!;
      sizes.push(s.size - (queued.length - popped.length - 1), t === e.time ? 0 : 1);
      popped.push(e);
      s.advanceTo(e.time);
    }
  }
  for (let e = s.pop(); e !== undefined; e = s.pop()) popped.push(e);
  return { popped, queued, sizes };
}

describe('Scheduler queue (heap and in-order message lane)', () => {
  it.each([
    [1, 0],
    [2, 0.5],
    [3, 0.95],
    [4, 1],
  ])('pops by (time, seq) whatever lane each event took (seed %i, constant share %f)', (seed, share) => {
    const { popped, queued, sizes } = drive(seed, share);
    expect(sizes.every((d) => d === 0)).toBe(true);
    const sorted = [...queued].sort((a, b) => a.time - b.time || a.seq - b.seq);
    // the lane gives back equal events (new objects for messages), in the heap's order
    expect(popped).toEqual(sorted);
  });

  it('keeps a long in-order run across many lane blocks, in order', () => {
    const s = new Scheduler();
    s.messagesInOrder();
    let next = 0;
    let seq = 0;
    // waves that fill several 16,384-message blocks and drain them, leaving some behind
    for (const [push, pop] of [
      [40_000, 30_000],
      [50_000, 55_000],
      [20_000, 25_000],
    ] as const) {
      for (let i = 0; i < push; i++, seq++) s.push(message(seq, seq));
      for (let i = 0; i < pop; i++, next++) {
        const e = s.pop()!;
        if (e.seq !== next) expect(e.seq).toBe(next);
      }
      expect(s.values().map((e) => e.seq)).toEqual(Array.from({ length: seq - next }, (_, k) => next + k));
    }
    expect([s.size, s.pop()]).toEqual([0, undefined]);
  });

  it('grows the lane past its first capacity, peeks, lists and removes by predicate', () => {
    const s = new Scheduler();
    s.messagesInOrder();
    for (let i = 0; i < 5_000; i++) s.push(message(i, i));
    for (let i = 0; i < 3_000; i++) expect(s.pop()).toEqual(message(i, i));
    for (let i = 5_000; i < 7_000; i++) s.push(message(i, i));
    s.push(timer(3_000, 7_001));
    s.push(message(0.5, 7_002)); // out of order: the heap takes it
    expect(s.size).toBe(4_002);
    expect(s.values()).toHaveLength(4_002);
    expect(s.peek()).toEqual(message(0.5, 7_002));
    expect(s.removeWhere((e) => e.seq % 2 === 1)).toBe(2_001);
    expect(s.nextTime()).toBe(0.5);
    expect(s.pop()).toEqual(message(0.5, 7_002));
    expect(s.pop()).toEqual(message(3_000, 3_000));
    expect(s.size).toBe(1_999);
    s.clear();
    expect([s.size, s.nextTime(), s.pop()]).toEqual([0, undefined, undefined]);
  });

  it.each([
    [5, 0.5],
    [6, 1],
  ])(
    'take() delivers lane messages to up without objects, in the order pop() gives (seed %i, constant share %f)',
    (seed, share) => {
      // the same seeded mix fed by push()/pop() and by pushMessage()/take()
      const reference = drive(seed, share).popped.map(seen);
      const rng = createRng(seed);
      const s = new Scheduler();
      const out: string[] = [];
      s.messagesInOrder({
        deliver: () => {
          throw new Error('the lane delivers by fields');
        },
        deliverMessage: (from, to, channel, msg, ctx) =>
          out.push(seen({ kind: 'message', time: s.now, seq: -1, from, to, channel, msg, ctx })),
      });
      const take = () => {
        const before = out.length;
        const e = s.take();
        if (e !== undefined) out.push(seen(e));
        return out.length > before;
      };
      let seq = 0;
      for (let step = 0; step < 20_000; step++) {
        if (rng.next() < 0.45) {
          const r = rng.next();
          const delay = r < share ? 1 : Math.floor(rng.next() * 5);
          const time = s.now + delay;
          if (rng.next() < 0.8) {
            const m = message(time, seq++);
            s.pushMessage(m.time, m.seq, m.from, m.to, m.channel, m.msg, m.ctx);
          } else s.push(timer(time, seq++));
        } else if (s.size > 0) {
          const t = s.nextTime()!;
          s.advanceTo(t);
          take();
        }
      }
      while (s.size > 0) {
        s.advanceTo(s.nextTime()!);
        take();
      }
      expect(take()).toBe(false);
      expect(out).toEqual(reference);
    },
  );
});
