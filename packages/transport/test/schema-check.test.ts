import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { counterSchema, processIdSchema } from '../src/index.js';
import { compileCheck } from '../src/schema-check.js';

const holey: unknown[] = [1, 2];
holey.length = 3;
const inherited = Object.create({ type: 'A', x: 1 }) as unknown;

/** Values of every shape, valid and not, for the schemas below. */
const values: unknown[] = [
  undefined,
  null,
  0,
  -0,
  1,
  -1,
  1.5,
  2 ** 53 - 1,
  2 ** 53,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '',
  'A',
  'B',
  '1',
  true,
  false,
  [],
  [1, 2],
  [1, 'x'],
  [1.5],
  holey,
  {},
  { type: 'A' },
  { type: 'A', x: 1 },
  { type: 'A', x: -1 },
  { type: 'A', x: 1, y: 'z' },
  { type: 'A', x: 1, extra: true },
  { type: 'A', x: undefined },
  { type: 'A', x: 1, tags: ['a', 'b'] },
  { type: 'A', x: 1, tags: ['a', 2] },
  { type: 'A', x: 1, inner: { ok: true } },
  { type: 'A', x: 1, inner: { ok: 'yes' } },
  { type: 'B', x: 1 },
  inherited,
  () => 1,
];

const schemas: [string, v.GenericSchema][] = [
  ['number', v.number()],
  ['string', v.string()],
  ['boolean', v.boolean()],
  ['literal', v.literal('A')],
  ['NaN literal', v.literal(Number.NaN)],
  ['picklist', v.picklist(['A', 'B', 1])],
  ['counter', counterSchema],
  ['process id', processIdSchema],
  ['bounded', v.pipe(v.number(), v.finite(), v.minValue(-1), v.maxValue(1.5))],
  ['array of integers', v.array(v.pipe(v.number(), v.integer()))],
  ['optional string', v.optional(v.string())],
  ['optional with default', v.optional(v.number(), 3)],
  ['fallback', v.fallback(v.number(), 0)],
  [
    'transform (left to valibot)',
    v.pipe(
      v.string(),
      v.transform((s) => s.length),
      v.minValue(1),
    ),
  ],
  [
    'custom check (left to valibot)',
    v.pipe(
      v.number(),
      v.check((x) => x !== 1),
    ),
  ],
  [
    'object',
    v.object({
      type: v.literal('A'),
      x: counterSchema,
      y: v.optional(v.string()),
      tags: v.optional(v.array(v.string())),
      inner: v.optional(v.object({ ok: v.boolean() })),
    }),
  ],
  ['loose object', v.looseObject({ type: v.literal('A'), x: v.number() })],
  ['strict object', v.strictObject({ type: v.literal('A'), x: v.number() })],
  ['object with a defaulted key', v.object({ type: v.literal('A'), x: v.optional(v.number(), 0) })],
  ['nullish key', v.object({ type: v.literal('A'), x: v.nullish(v.number()) })],
  ['variant', v.variant('type', [v.object({ type: v.literal('A'), x: v.number() })])],
];

describe('compileCheck', () => {
  it.each(schemas)('gives the verdict of v.is for %s on every value', (_name, schema) => {
    const check = compileCheck(schema);
    const verdicts = values.map((x) => [x, check(x)]);
    expect(verdicts).toEqual(values.map((x) => [x, v.is(schema, x)]));
  });

  it('accepts and rejects something for every schema (the values reach both verdicts)', () => {
    // a fallback accepts everything: it is there to be left to valibot, not to reject
    for (const [name, schema] of schemas.filter(([name]) => name !== 'fallback')) {
      const verdicts = new Set(values.map((x) => v.is(schema, x)));
      expect(verdicts, name).toEqual(new Set([true, false]));
    }
  });
});
