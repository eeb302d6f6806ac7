/**
 * A valibot schema turned once into a plain check function (the hot path of `defineProtocol`):
 * the same verdict as `v.is(schema, x)` without valibot's per-call datasets and output objects.
 * The schemas messages are made of are checked directly — `object`, `loose_object`,
 * `strict_object`, `literal`, `picklist`, `number`, `string`, `boolean`, `array`, `optional`
 * (without a default), and `pipe`s of them with the validations `integer`, `safe_integer`,
 * `finite`, `min_value` and `max_value` on numbers; any other schema (or a pipe with any other
 * action) is left whole to `v.is`, so the verdict never differs.
 */
import * as v from 'valibot';

/** A compiled check: true when `x` passes the schema it was built from. */
export type Check = (x: unknown) => boolean;

/** The public properties of valibot schemas and actions this file reads. */
interface Node {
  readonly kind?: unknown;
  readonly type?: unknown;
  readonly async?: unknown;
  readonly pipe?: readonly Node[];
  readonly entries?: Readonly<Record<string, Node>>;
  readonly item?: Node;
  readonly wrapped?: Node;
  readonly literal?: unknown;
  readonly options?: readonly unknown[];
  readonly requirement?: unknown;
  readonly default?: unknown;
  readonly fallback?: unknown;
}

/** Builds the check of `schema` (valibot's own `v.is` for what it does not know). */
export function compileCheck(schema: unknown): Check {
  const s = schema as Node;
  if (s.async !== false) return (x) => v.is(schema as v.GenericSchema, x);
  if (s.fallback !== undefined) return whole(s);
  if (Array.isArray(s.pipe)) return compilePipe(s.pipe as readonly Node[]) ?? whole(s);
  switch (s.type) {
    case 'number':
      return (x) => typeof x === 'number' && !Number.isNaN(x);
    case 'string':
      return (x) => typeof x === 'string';
    case 'boolean':
      return (x) => typeof x === 'boolean';
    case 'literal': {
      const lit = s.literal;
      // SameValueZero, as valibot compares literals
      if (Number.isNaN(lit)) return (x) => Number.isNaN(x);
      return (x) => x === lit;
    }
    case 'picklist': {
      const options = s.options ?? [];
      return (x) => options.includes(x);
    }
    case 'array': {
      const item = compileCheck(s.item);
      return (x) => {
        if (!Array.isArray(x)) return false;
        // every index, holes included (as undefined), like valibot's loop
        for (let i = 0; i < x.length; i++) if (!item(x[i])) return false;
        return true;
      };
    }
    case 'optional': {
      if (s.default !== undefined) return whole(s);
      const wrapped = compileCheck(s.wrapped);
      return (x) => x === undefined || wrapped(x);
    }
    case 'object':
    case 'loose_object':
      return compileObject(s, false) ?? whole(s);
    case 'strict_object':
      return compileObject(s, true) ?? whole(s);
    default:
      return whole(s);
  }
}

function whole(s: Node): Check {
  return (x) => v.is(s as v.GenericSchema, x);
}

/** An object: every entry present and valid (an optional one may be absent); `strict`: no other key. */
function compileObject(s: Node, strict: boolean): Check | undefined {
  const entries = s.entries;
  if (entries === undefined) return undefined;
  const keys: string[] = [];
  const checks: Check[] = [];
  const required: boolean[] = [];
  for (const key in entries) {
    const e = entries[key]!;
    const optional = e.type === 'optional' || e.type === 'exact_optional' || e.type === 'nullish';
    // a default or fallback fills a missing key in: leave such an object to valibot
    if ((optional && e.default !== undefined) || e.fallback !== undefined) return undefined;
    keys.push(key);
    checks.push(compileCheck(e));
    required.push(!optional);
  }
  const count = keys.length;
  return (x) => {
    if (typeof x !== 'object' || x === null) return false;
    const o = x as Record<string, unknown>;
    for (let i = 0; i < count; i++) {
      const key = keys[i]!;
      if (key in o) {
        if (!checks[i]!(o[key])) return false;
      } else if (required[i]) return false;
    }
    if (strict) for (const key in o) if (!Object.hasOwn(entries, key)) return false;
    return true;
  };
}

/** A pipe: its first schema, then each validation in order (metadata is skipped). */
function compilePipe(pipe: readonly Node[]): Check | undefined {
  const [first, ...rest] = pipe;
  if (first === undefined) return undefined;
  const checks: Check[] = [compileCheck(first)];
  for (const item of rest) {
    if (item.kind === 'metadata') continue;
    const check = item.kind === 'schema' ? compileCheck(item) : compileValidation(item);
    if (check === undefined) return undefined;
    checks.push(check);
  }
  return (x) => {
    for (const c of checks) if (!c(x)) return false;
    return true;
  };
}

/** The validations of numbers a message schema uses; `undefined` for any other action. */
function compileValidation(a: Node): Check | undefined {
  if (a.kind !== 'validation' || a.async !== false) return undefined;
  const req = a.requirement;
  switch (a.type) {
    case 'integer':
      return (x) => Number.isInteger(x);
    case 'safe_integer':
      return (x) => Number.isSafeInteger(x);
    case 'finite':
      return (x) => Number.isFinite(x);
    case 'min_value':
      return typeof req === 'number' ? (x) => (x as number) >= req : undefined;
    case 'max_value':
      return typeof req === 'number' ? (x) => (x as number) <= req : undefined;
    default:
      return undefined;
  }
}
