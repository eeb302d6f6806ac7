/**
 * The compiled message check (src/compiled-check.ts) against valibot, the reference: on random
 * schemas of every construct the compiler knows (and some it does not, which it must leave to
 * valibot), and on valid, forged (extreme values, wrong types, missing fields, extra keys,
 * prototype-pollution keys, arrays, inherited fields) and malformed inputs, the two verdicts are
 * the same for every input.
 */
import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { compileCheck } from '../src/compiled-check.js';
import { counterSchema, defineProtocol, processIdSchema, timestampSchema } from '../src/index.js';

type Schema = v.GenericSchema;

/** Values every field is forged with: the boundaries, the non-numbers, the wrong types. */
const EXTREMES: unknown[] = [
  0,
  -0,
  1,
  -1,
  0.5,
  -0.5,
  1.5,
  2 ** 31,
  2 ** 32,
  2 ** 53 - 2,
  2 ** 53 - 1,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53 - 1),
  -(2 ** 53),
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  Number.EPSILON,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  '',
  '0',
  '1',
  'REQUEST',
  'x'.repeat(100_000),
  true,
  false,
  null,
  undefined,
  [],
  [1],
  {},
  { valueOf: () => 1 },
  Symbol('s'),
  () => 1,
  10n,
  new Date(0),
  Object.create(null),
];

/** Keys an attacker adds or that trip a naive `key in entries` test. */
const ODD_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'extra',
  'type',
];

const literalArb: fc.Arbitrary<string | number | boolean> = fc.oneof(
  fc.constantFrom('REQUEST', 'A', '', '__proto__'),
  fc.constantFrom(0, 1, -1, 2 ** 53 - 1),
  fc.boolean(),
);
const boundArb = fc.constantFrom(-(2 ** 53), -1, 0, 1, 3, 2 ** 31, 2 ** 53 - 2, 2 ** 53 - 1, 2 ** 53, 0.5);

/** A number schema: bare, or piped with some of integer, safeInteger, minValue, maxValue (nested too). */
const numberArb: fc.Arbitrary<Schema> = fc
  .record({
    integer: fc.boolean(),
    safe: fc.boolean(),
    mins: fc.array(boundArb, { maxLength: 2 }),
    maxs: fc.array(boundArb, { maxLength: 2 }),
    nested: fc.boolean(),
  })
  .map(({ integer, safe, mins, maxs, nested }) => {
    const actions: v.PipeItem<number, number, v.BaseIssue<unknown>>[] = [];
    if (integer) actions.push(v.integer());
    if (safe) actions.push(v.safeInteger());
    for (const min of mins) actions.push(v.minValue(min));
    for (const max of maxs) actions.push(v.maxValue(max));
    if (actions.length === 0) return v.number();
    if (nested && actions.length > 1) {
      const [first, ...rest] = actions;
      return v.pipe(v.pipe(v.number(), first!), ...rest) as Schema;
    }
    return (v.pipe as unknown as (...a: unknown[]) => Schema)(v.number(), ...actions);
  });

/** Schemas the compiler leaves to valibot (its verdict must still be valibot's). */
const unknownLeafArb: fc.Arbitrary<Schema> = fc.constantFrom<Schema>(
  v.optional(v.number()),
  v.nullable(v.string()),
  v.pipe(
    v.number(),
    v.check((n) => n % 2 === 0),
  ),
  v.fallback(v.number(), 0) as unknown as Schema,
  v.pipe(v.string(), v.maxLength(3)),
  v.bigint(),
);

const leafArb: fc.Arbitrary<Schema> = fc.oneof(
  { weight: 3, arbitrary: literalArb.map((l) => v.literal(l) as Schema) },
  { weight: 4, arbitrary: numberArb },
  { weight: 2, arbitrary: fc.constant(v.number() as Schema) },
  { weight: 1, arbitrary: fc.constant(v.boolean() as Schema) },
  { weight: 1, arbitrary: fc.constant(v.string() as Schema) },
  {
    weight: 1,
    arbitrary: fc
      .uniqueArray(fc.constantFrom('MUTEX', 'MUTIN', 'a', '', '__proto__'), { minLength: 1, maxLength: 3 })
      .map((o) => v.picklist(o) as Schema),
  },
  { weight: 1, arbitrary: unknownLeafArb },
);

const keyArb = fc.constantFrom('type', 'req', 'ts', 'a', 'b', 'constructor', 'toString', 'valueOf');

const { schema: schemaArb } = fc.letrec<{ schema: Schema; object: Schema }>((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: leafArb },
    { weight: 1, arbitrary: tie('schema').map((s) => v.array(s) as Schema) },
    { weight: 1, arbitrary: tie('object') },
  ),
  object: fc
    .record({
      strict: fc.boolean(),
      entries: fc.uniqueArray(fc.tuple(keyArb, tie('schema')), { maxLength: 4, selector: ([k]) => k }),
    })
    .map(({ strict, entries }) => {
      const e: Record<string, Schema> = {};
      for (const [k, s] of entries)
        Object.defineProperty(e, k, { value: s, enumerable: true, writable: true });
      return (strict ? v.strictObject(e) : v.object(e)) as Schema;
    }),
}));

/** An object schema at the top, as a protocol's message option is. */
const messageSchemaArb = schemaArb.filter((s) => s.type === 'object' || s.type === 'strict_object');

/** A value that fits `s` often (so the valid side is exercised), built from its valibot shape. */
function validArb(s: Schema): fc.Arbitrary<unknown> {
  const node = s as unknown as {
    type: string;
    literal?: unknown;
    options?: unknown[];
    entries?: Record<string, Schema>;
    item?: Schema;
    wrapped?: Schema;
  };
  switch (node.type) {
    case 'literal':
      return fc.constant(node.literal);
    case 'number':
      return fc.oneof(fc.constantFrom(0, 1, 3, 2 ** 53 - 2, 2 ** 53 - 1, -1, 0.5), fc.integer(), fc.double());
    case 'boolean':
      return fc.boolean();
    case 'string':
      return fc.string();
    case 'picklist':
      return fc.constantFrom(...(node.options ?? ['']));
    case 'bigint':
      return fc.bigInt();
    case 'optional':
    case 'nullable':
      return fc.oneof(fc.constant(undefined), fc.constant(null), validArb(node.wrapped!));
    case 'array':
      return fc.array(validArb(node.item!), { maxLength: 3 });
    case 'variant':
    case 'union':
      return fc.oneof(...(node.options as Schema[]).map(validArb));
    case 'object':
    case 'strict_object': {
      const keys = Object.keys(node.entries!);
      return fc.tuple(...keys.map((k) => validArb(node.entries![k]!))).map((values) => {
        const o: Record<string, unknown> = {};
        keys.forEach((k, i) => {
          Object.defineProperty(o, k, {
            value: values[i],
            enumerable: true,
            writable: true,
            configurable: true,
          });
        });
        return o;
      });
    }
    default:
      return fc.anything();
  }
}

type Mutation = (o: Record<string, unknown>) => unknown;

/** Sets own enumerable `k` of `o` to `x` (a frozen object is left as it is). */
function define(o: Record<string, unknown>, k: string, x: unknown): unknown {
  if (Object.isExtensible(o) || Object.hasOwn(o, k)) {
    try {
      Object.defineProperty(o, k, { value: x, enumerable: true, writable: true, configurable: true });
    } catch {
      // a frozen own key: unchanged
    }
  }
  return o;
}

/** A value of a plausible kind, not necessarily in range or in the list. */
const plausibleArb = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.double(), fc.boolean());

/** How a valid message of a schema with these `keys` is forged or broken. */
const mutationArb = (keys: string[]): fc.Arbitrary<Mutation> => {
  const fieldArb = keys.length > 0 ? fc.oneof(fc.constantFrom(...keys), keyArb) : keyArb;
  return fc.oneof(
    fc.tuple(fieldArb, fc.constantFrom(...EXTREMES)).map(
      ([k, x]): Mutation =>
        (o) =>
          define(o, k, x),
    ),
    fc.tuple(fieldArb, plausibleArb).map(
      ([k, x]): Mutation =>
        (o) =>
          define(o, k, x),
    ),
    fieldArb.map(
      (k): Mutation =>
        (o) => {
          if (Object.isExtensible(o)) Reflect.deleteProperty(o, k);
          return o;
        },
    ),
    // an own key, as JSON.parse makes it (`__proto__` included), not a prototype change
    fc.tuple(fc.constantFrom(...ODD_KEYS), fc.constantFrom(...EXTREMES)).map(
      ([k, x]): Mutation =>
        (o) =>
          define(o, k, x),
    ),
    fc.constant<Mutation>((o) => {
      // `__proto__` as an own key, as a wire message parsed by JSON.parse carries it
      let body: string | undefined;
      try {
        body = JSON.stringify(o);
      } catch {
        return o; // a bigint field: no JSON
      }
      if (body === undefined || !body.startsWith('{')) return o;
      return JSON.parse(
        body === '{}' ? '{"__proto__":{"polluted":1}}' : `{"__proto__":{"polluted":1},${body.slice(1)}`,
      );
    }),
    fc.constant<Mutation>((o) => Object.assign([], o)), // an array with the message's fields
    fc.constant<Mutation>((o) => Object.create(o)), // every field inherited
    fc.constant<Mutation>((o) => Object.assign(Object.create(null), o)),
    fc.constant<Mutation>((o) => Object.freeze(o)),
    fc.constant<Mutation>((o) => Object.assign(Object.create({ inherited: 1, extra: 'x' }), o)),
    fc.constant<Mutation>((o) => Object.assign(() => 0, o)), // a function: not an object for valibot
    fc.constant<Mutation>((o) => {
      try {
        return JSON.stringify(o);
      } catch {
        return '(no JSON)';
      }
    }),
  );
};

/** The entry keys of an object schema, of every option of a variant. */
function keysOf(s: Schema): string[] {
  const node = s as unknown as { entries?: object; options?: Schema[] };
  if (node.entries !== undefined) return Object.keys(node.entries);
  return (node.options ?? []).flatMap(keysOf);
}

/** Valid, forged (a valid message mutated 1–3 times) and malformed (anything) inputs for `s`. */
function inputArb(s: Schema): fc.Arbitrary<unknown> {
  const valid = validArb(s);
  return fc.oneof(
    { weight: 3, arbitrary: valid },
    {
      weight: 5,
      arbitrary: fc
        .tuple(valid, fc.array(mutationArb(keysOf(s)), { minLength: 1, maxLength: 3 }))
        .map(([x, ms]) => {
          let o: unknown = x;
          for (const m of ms) o = typeof o === 'object' && o !== null ? m(o as Record<string, unknown>) : o;
          return o;
        }),
    },
    { weight: 1, arbitrary: fc.constantFrom(...EXTREMES) },
    { weight: 1, arbitrary: fc.anything({ withNullPrototype: true, withObjectString: true }) },
  );
}

/** The check `defineProtocol` runs for `s`: compiled, or valibot's where it cannot be compiled. */
const checkOf = (s: Schema) => compileCheck(s) ?? ((x: unknown) => v.is(s, x));

describe('compiled check against valibot (fast-check)', () => {
  it('agrees with v.is on every input, for random message schemas', () => {
    let compiled = 0;
    let accepted = 0;
    let runs = 0;
    fc.assert(
      fc.property(
        messageSchemaArb.chain((s) =>
          fc.tuple(fc.constant(s), fc.array(inputArb(s), { minLength: 1, maxLength: 20 })),
        ),
        ([s, inputs]) => {
          const check = checkOf(s);
          if (compileCheck(s) !== undefined) compiled++;
          runs++;
          for (const x of inputs) {
            const want = v.is(s, x);
            if (want) accepted++;
            if (check(x) !== want) return false;
          }
          return true;
        },
      ),
      { numRuns: 1500, seed: 15 },
    );
    // the compiled side, and the accepting side, were both exercised
    expect(compiled).toBeGreaterThan(runs / 3);
    expect(accepted).toBeGreaterThan(runs);
  });

  it('agrees with v.is for the shared field schemas, on every extreme value', () => {
    for (const s of [counterSchema, timestampSchema, processIdSchema] as Schema[]) {
      const check = compileCheck(s);
      expect(check).toBeDefined();
      for (const x of [...EXTREMES, 2 ** 53 - 1, 2 ** 53, -(2 ** 53 - 1)])
        expect(check!(x), typeof x).toBe(v.is(s, x));
    }
    expect(compileCheck(counterSchema)!(2 ** 53 - 1)).toBe(true);
    expect(compileCheck(counterSchema)!(2 ** 53)).toBe(false);
    expect(compileCheck(counterSchema)!(Number.NaN)).toBe(false);
    expect(compileCheck(counterSchema)!(-1)).toBe(false);
  });

  it('leaves what it does not know to valibot (undefined), never guesses', () => {
    for (const s of [
      v.object({ a: v.optional(v.number()) }),
      v.object({
        a: v.pipe(
          v.number(),
          v.transform((n) => n + 1),
        ),
      }),
      v.object({ a: v.object({ b: v.number() }), c: v.fallback(v.number(), 1) }),
      v.looseObject({ a: v.number() }),
      v.pipe(
        v.object({ a: v.number() }),
        v.check(() => true),
      ),
      v.object({ a: v.union([v.number(), v.string()]) }),
    ] as Schema[])
      expect(compileCheck(s)).toBeUndefined();
  });

  it('a protocol over a variant of random options gives the verdict of the whole schema', () => {
    fc.assert(
      fc.property(
        fc
          .uniqueArray(
            fc.tuple(fc.constantFrom('REQUEST', 'LOCKED', 'A', '__proto__', 'constructor'), messageSchemaArb),
            {
              minLength: 1,
              maxLength: 4,
              selector: ([t]) => t,
            },
          )
          .map(
            (options) =>
              v.variant(
                'type',
                options.map(([t, s]) => {
                  const entries = { ...(s as unknown as { entries: Record<string, Schema> }).entries };
                  Object.defineProperty(entries, 'type', {
                    value: v.literal(t),
                    enumerable: true,
                    writable: true,
                  });
                  return (s.type === 'strict_object'
                    ? v.strictObject(entries)
                    : v.object(entries)) as unknown as v.VariantOptions<'type'>[number];
                }),
              ) as Schema,
          )
          .chain((schema) =>
            fc.tuple(fc.constant(schema), fc.array(inputArb(schema), { minLength: 1, maxLength: 10 })),
          ),
        ([schema, inputs]) => {
          const proto = defineProtocol('random', schema as v.GenericSchema<unknown, { type: string }>);
          return inputs.every((x) => proto.is(x) === v.is(schema, x));
        },
      ),
      { numRuns: 400, seed: 1515 },
    );
  });
});
