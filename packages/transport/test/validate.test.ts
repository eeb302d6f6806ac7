import { type Message, type ProcessId, ProtocolError } from '@critsec/core';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { counterSchema, createEndpoint, defineProtocol, type Protocol } from '../src/index.js';

/** One endpoint whose receiver the test calls by hand. */
function receiverOf<M extends Message>(proto: Protocol<M>) {
  let receive: ((from: ProcessId, channel: string, msg: Message) => void) | undefined;
  const ep = createEndpoint({
    self: 0,
    peers: [0, 1, 2],
    send() {},
    setReceiver(fn) {
      receive = fn;
    },
  });
  const handled: M[] = [];
  const errors: ProtocolError[] = [];
  proto.listen(
    ep,
    (_from, m) => handled.push(m),
    (e) => errors.push(e),
  );
  return { deliver: (msg: unknown) => receive!(1, '', msg as Message), handled, errors };
}

const tagged = <T extends string>(type: T) =>
  v.object({ type: v.literal(type), req: counterSchema, ts: counterSchema });
const options = [
  tagged('REQUEST'),
  v.object({ type: v.literal('ACK') }),
  v.object({
    type: v.literal('SET'),
    ids: v.array(v.pipe(v.number(), v.integer())),
    note: v.optional(v.string()),
  }),
];

/** Malformed messages, one or more per kind, and what makes each wrong. */
const malformed: [string, unknown][] = [
  ['not an object', 'REQUEST'],
  ['null', null],
  ['undefined', undefined],
  ['an array', [{ type: 'ACK' }]],
  ['no type', { req: 1, ts: 1 }],
  ['an unknown type', { type: 'BOGUS' }],
  ['a non-string type', { type: 7 }],
  ['a type of another case', { type: 'request', req: 1, ts: 1 }],
  ['an inherited key only', { type: '__proto__' }],
  ['REQUEST without ts', { type: 'REQUEST', req: 1 }],
  ['REQUEST with a negative ts', { type: 'REQUEST', req: 1, ts: -1 }],
  ['REQUEST with ts past 2^53', { type: 'REQUEST', req: 1, ts: 2 ** 53 }],
  ['REQUEST with a string req', { type: 'REQUEST', req: '1', ts: 1 }],
  ['SET with a fractional id', { type: 'SET', ids: [1, 1.5] }],
  ['SET with a non-array', { type: 'SET', ids: 3 }],
  ['SET with a numeric note', { type: 'SET', ids: [], note: 4 }],
];
const valid: unknown[] = [
  { type: 'REQUEST', req: 0, ts: 2 ** 53 - 1 },
  { type: 'ACK' },
  { type: 'ACK', extra: 'kept out of the schema, allowed by v.object' },
  { type: 'SET', ids: [] },
  { type: 'SET', ids: [0, 3], note: 'x' },
];

describe.each([
  ['variant', v.variant('type', options)],
  ['union', v.union(options)],
])('defineProtocol over a %s keyed by type', (kind, schema) => {
  const proto = defineProtocol(`demo-${kind}`, schema);

  it('gives the verdict of the whole schema for every message', () => {
    for (const msg of [...valid, ...malformed.map(([, m]) => m)]) {
      expect(proto.is(msg), JSON.stringify(msg)).toBe(v.is(schema, msg));
    }
  });

  it.each(malformed)('drops, counts and reports a message with %s', (_why, msg) => {
    const { deliver, handled, errors } = receiverOf(proto);
    const before = proto.dropped;
    deliver(msg);
    expect(handled).toEqual([]);
    expect(proto.dropped).toBe(before + 1);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(ProtocolError);
    expect(errors[0]!.message).toMatch(
      new RegExp(`^demo-${kind}: dropped invalid message from P1 on '': .+`),
    );
    expect(errors[0]!.from).toBe(1);
  });

  it('passes every valid message, unchanged, to the handler', () => {
    const { deliver, handled, errors } = receiverOf(proto);
    for (const msg of valid) deliver(msg);
    expect(handled).toEqual(valid);
    expect(handled[2]).toBe(valid[2]);
    expect(errors).toEqual([]);
  });
});

describe('defineProtocol error text', () => {
  it("names the failing field, or the variant's expected types for an unknown type", () => {
    const proto = defineProtocol('demo', v.variant('type', options));
    const { deliver, errors } = receiverOf(proto);
    deliver({ type: 'REQUEST', req: 1, ts: -1 });
    deliver({ type: 'BOGUS' });
    expect(errors.map((e) => e.message)).toEqual([
      `demo: dropped invalid message from P1 on '': ts: ${v.safeParse(counterSchema, -1).issues![0].message} ({"type":"REQUEST","req":1,"ts":-1})`,
      `demo: dropped invalid message from P1 on '': type: ${v.safeParse(v.variant('type', options), { type: 'BOGUS' }).issues![0].message} ({"type":"BOGUS"})`,
    ]);
  });

  it('checks a schema that is not keyed by type whole (a piped variant keeps its own check)', () => {
    const piped = v.pipe(
      v.variant('type', options),
      v.check((m) => m.type !== 'ACK', 'no ACK here'),
    );
    const proto = defineProtocol('piped', piped);
    expect(proto.is({ type: 'ACK' })).toBe(false);
    expect(proto.is({ type: 'REQUEST', req: 1, ts: 1 })).toBe(true);
    const dupes = defineProtocol(
      'dupes',
      v.union([
        v.object({ type: v.literal('A'), x: v.number() }),
        v.object({ type: v.literal('A'), y: v.string() }),
      ]),
    );
    expect(dupes.is({ type: 'A', y: 's' })).toBe(true);
    expect(dupes.is({ type: 'A' })).toBe(false);
  });
});

describe('defineProtocol checks a message object once only when it can never change', () => {
  /** A protocol whose check counts its runs; `ok` decides the verdict of `x` messages. */
  function counting() {
    let checks = 0;
    const proto = defineProtocol(
      'counting',
      v.pipe(
        v.object({ type: v.literal('X'), n: v.number(), inner: v.optional(v.object({ n: v.number() })) }),
        v.check((m) => {
          checks++;
          return m.n >= 0 && (m.inner === undefined || m.inner.n >= 0);
        }),
      ),
    );
    return { proto, checks: () => checks };
  }

  it('a frozen object of primitive fields (a multicast) is checked once, however many deliveries', () => {
    const { proto, checks } = counting();
    const a = receiverOf(proto);
    const b = receiverOf(proto);
    const msg = Object.freeze({ type: 'X', n: 1 });
    a.deliver(msg);
    b.deliver(msg);
    a.deliver(msg);
    expect(checks()).toBe(1);
    expect([...a.handled, ...b.handled]).toEqual([msg, msg, msg]);
    expect(proto.dropped).toBe(0);
  });

  it('an object that is not frozen is checked at every delivery: mutated invalid, it is dropped', () => {
    const { proto, checks } = counting();
    const { deliver, handled, errors } = receiverOf(proto);
    const msg = { type: 'X', n: 1 };
    deliver(msg);
    msg.n = -1;
    deliver(msg);
    // 1 + 2 (a dropped message is parsed once more, for the report)
    expect(checks()).toBe(3);
    expect(handled).toHaveLength(1);
    expect(errors).toHaveLength(1);
    expect(proto.dropped).toBe(1);
  });

  it('a frozen object with a nested object or a getter is checked at every delivery', () => {
    const { proto, checks } = counting();
    const { deliver, handled, errors } = receiverOf(proto);
    const inner = { n: 1 };
    const nested = Object.freeze({ type: 'X', n: 1, inner });
    deliver(nested);
    inner.n = -1;
    deliver(nested);
    let reads = 0;
    const getter = Object.freeze({
      type: 'X',
      get n() {
        reads++;
        return reads === 1 ? 1 : -1;
      },
    });
    deliver(getter);
    deliver(getter);
    // every delivery checked: 2 valid + 2 dropped (each parsed once more, for the report)
    expect(checks()).toBe(6);
    expect(handled).toEqual([nested, getter]);
    expect(errors).toHaveLength(2);
    expect(proto.dropped).toBe(2);
  });

  it('an invalid frozen object is dropped at every delivery, and a message from an unknown process too', () => {
    const { proto } = counting();
    const { deliver, handled, errors } = receiverOf(proto);
    const bad = Object.freeze({ type: 'X', n: -1 });
    deliver(bad);
    deliver(bad);
    const good = Object.freeze({ type: 'X', n: 1 });
    deliver(good);
    expect(handled).toEqual([good]);
    expect(errors).toHaveLength(2);
    expect(proto.dropped).toBe(2);
  });
});
