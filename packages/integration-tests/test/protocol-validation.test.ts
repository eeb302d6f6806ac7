/**
 * The real protocols' message checks (`defineProtocol`: dispatch on `type`, then the check
 * compiled from the option's valibot schema, issue 15) against valibot's own verdict on the
 * whole schema (through its Standard Schema `validate`), on valid, forged and malformed
 * messages: extreme values, wrong types, missing fields, extra and prototype-pollution keys,
 * arrays, inherited fields. Every input must get the same accept/reject from both.
 */
import { maekawaProtocol, ricartAgrawalaProtocol } from '@critsec/mutex';
import { mutinProtocol } from '@critsec/mutin';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

/** valibot's verdict on the whole schema (the reference). */
function valibotAccepts(schema: unknown, x: unknown): boolean {
  const r = (schema as { '~standard': { validate(x: unknown): { issues?: unknown } } })['~standard'].validate(
    x,
  );
  return r.issues === undefined;
}

const EXTREMES: unknown[] = [
  0,
  -0,
  1,
  -1,
  0.5,
  2 ** 53 - 2,
  2 ** 53 - 1,
  2 ** 53,
  -(2 ** 53 - 1),
  Number.MAX_VALUE,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  '',
  '1',
  'x'.repeat(100_000),
  true,
  null,
  undefined,
  [],
  [0, 1],
  [-1],
  [0.5],
  {},
  10n,
];

/** One valid message per type (the field values are replaced by the forgeries). */
const protocols = [
  {
    protocol: maekawaProtocol,
    valid: ['REQUEST', 'LOCKED', 'FAILED', 'INQUIRE', 'RELINQUISH', 'RELEASE'].map((type) => ({
      type,
      req: 3,
      ts: 4,
    })),
  },
  {
    protocol: ricartAgrawalaProtocol,
    valid: [
      { type: 'REQUEST', ts: 1 },
      { type: 'REPLY', req: 1 },
    ],
  },
  {
    protocol: mutinProtocol,
    valid: [
      { type: 'Query', reqCnt: 2 },
      { type: 'Response1', procsInCS: [0, 2], reqCnt: 2 },
      { type: 'Response2', procsInCS: [], reqCnt: 0 },
      { type: 'Acquire' },
      { type: 'Ack' },
      { type: 'Release' },
    ],
  },
];

const KEYS = ['type', 'req', 'ts', 'reqCnt', 'procsInCS', '__proto__', 'constructor', 'toString', 'extra'];

type Forge = (o: Record<string, unknown>) => unknown;
const forgeArb: fc.Arbitrary<Forge> = fc.oneof(
  fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom(...EXTREMES)).map(
    ([k, x]): Forge =>
      (o) => {
        Object.defineProperty(o, k, { value: x, enumerable: true, writable: true, configurable: true });
        return o;
      },
  ),
  fc.tuple(fc.constantFrom(...KEYS), fc.oneof(fc.integer(), fc.double(), fc.string({ maxLength: 4 }))).map(
    ([k, x]): Forge =>
      (o) => {
        Object.defineProperty(o, k, { value: x, enumerable: true, writable: true, configurable: true });
        return o;
      },
  ),
  fc.constantFrom(...KEYS).map(
    (k): Forge =>
      (o) => {
        delete o[k];
        return o;
      },
  ),
  fc.constant<Forge>((o) => {
    // `__proto__` as an own key, as JSON.parse of a wire message makes it
    let body: string | undefined;
    try {
      body = JSON.stringify(o);
    } catch {
      return o; // a bigint: no JSON
    }
    if (body === undefined || !body.startsWith('{')) return o;
    return JSON.parse(body === '{}' ? '{"__proto__":{"ts":1}}' : `{"__proto__":{"ts":1},${body.slice(1)}`);
  }),
  fc.constant<Forge>((o) => Object.assign([], o)),
  fc.constant<Forge>((o) => Object.create(o)),
  fc.constant<Forge>((o) => Object.assign(Object.create(null), o)),
  fc.constant<Forge>((o) => Object.freeze(o)),
);

describe('every protocol: the compiled check against valibot (fast-check)', () => {
  it.each(protocols.map((p) => [p.protocol.name, p] as const))('%s', (_name, { protocol, valid }) => {
    for (const m of valid) expect(protocol.is(m), JSON.stringify(m)).toBe(true);
    let rejected = 0;
    fc.assert(
      fc.property(
        fc.oneof(
          {
            weight: 6,
            arbitrary: fc
              .tuple(fc.constantFrom(...valid), fc.array(forgeArb, { minLength: 1, maxLength: 3 }))
              .map(([m, forges]) => {
                let o: unknown = { ...m };
                for (const f of forges)
                  o =
                    typeof o === 'object' && o !== null && Object.isExtensible(o)
                      ? f(o as Record<string, unknown>)
                      : o;
                return o;
              }),
          },
          { weight: 1, arbitrary: fc.constantFrom(...EXTREMES) },
          { weight: 1, arbitrary: fc.anything({ withNullPrototype: true }) },
        ),
        (x) => {
          const want = valibotAccepts(protocol.schema, x);
          if (!want) rejected++;
          return protocol.is(x) === want;
        },
      ),
      { numRuns: 3000, seed: 15 },
    );
    expect(rejected).toBeGreaterThan(1000);
  });
});
