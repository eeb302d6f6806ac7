/**
 * The hot path of message validation, issue 15: a check compiled once from a protocol's own
 * valibot object schema, giving the same verdict as `v.is(schema, msg)` without valibot's
 * per-call dataset objects. It understands only what the protocols' messages are made of (an
 * `object` or `strictObject` of string/number/boolean literals, `number` with `integer`,
 * `safeInteger`, `minValue`, `maxValue` in a pipe, `boolean`, `string`, `picklist` of strings,
 * `array` of those) and returns `undefined` for any other schema, which valibot then checks.
 * Each rule below restates valibot 1.x's own `~run` of that schema (the line it mirrors is named);
 * `test/compiled-check.test.ts` cross-checks the two with fast-check on random schemas and on
 * valid, forged and malformed messages (and integration-tests' `protocol-validation.test.ts` on
 * the protocols' own schemas).
 *
 * Our own code, not a library's, by measurement (issue 15; `critsec simulate mutex --n 1024
 * --coterie grid --json`, 3 alternating runs each on 2 shared cores at load 4.7–5.7, medians of
 * `performance.messagesPerCpuSecond`): before issue 15 (valibot's `is`) 835,932; with
 * `@critsec/testing`'s attribution slot, ajv 8 over `@valibot/to-json-schema` 1,020,924 and
 * this check 1,201,556. ajv also needed shims to give
 * valibot's verdict (an array carrying the fields passes valibot's `object`, not JSON Schema's;
 * `safeInteger` converts to an unbounded `integer`) and the same cross-check still found inputs
 * where they disagree (`undefined` items of an array of optional entries).
 */

/** A compiled check: true when valibot's `is` would be. */
export type Check = (x: unknown) => boolean;

/** The public properties of valibot 1.x schemas and actions this compiler reads. */
interface Node {
  readonly kind?: unknown;
  readonly type?: unknown;
  readonly literal?: unknown;
  readonly options?: unknown;
  readonly entries?: unknown;
  readonly item?: unknown;
  readonly pipe?: unknown;
  readonly requirement?: unknown;
}

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Compiles `schema` (a valibot object schema) into a {@link Check}, or returns `undefined` when
 * it holds anything the compiler does not know (the caller keeps valibot's check for it).
 */
export function compileCheck(schema: unknown): Check | undefined {
  return compileNode(schema as Node);
}

function compileNode(s: Node): Check | undefined {
  if (typeof s !== 'object' || s === null || s.kind !== 'schema') return undefined;
  // a fallback (or a default) changes the verdict: valibot's
  if ('fallback' in s || 'default' in s) return undefined;
  const pipe = s.pipe;
  if (pipe !== undefined) return compilePipe(s, pipe);
  switch (s.type) {
    case 'object':
    case 'strict_object':
      return compileObject(s);
    case 'literal': {
      // literal: dataset.value === this.literal
      const lit = s.literal;
      if (typeof lit !== 'string' && typeof lit !== 'number' && typeof lit !== 'boolean') return undefined;
      return (x) => x === lit;
    }
    case 'number':
      // number: typeof value === 'number' && !isNaN(value)
      return (x) => typeof x === 'number' && !Number.isNaN(x);
    case 'boolean':
      return (x) => typeof x === 'boolean';
    case 'string':
      return (x) => typeof x === 'string';
    case 'picklist': {
      // picklist: this.options.includes(dataset.value)
      const options = s.options;
      if (!Array.isArray(options) || !options.every((o) => typeof o === 'string')) return undefined;
      const set = new Set<unknown>(options);
      return (x) => set.has(x);
    }
    case 'array': {
      // array: Array.isArray(input), then every item
      const item = compileNode(s.item as Node);
      if (item === undefined) return undefined;
      return (x) => {
        if (!Array.isArray(x)) return false;
        for (let i = 0; i < x.length; i++) if (!item(x[i])) return false;
        return true;
      };
    }
    default:
      return undefined;
  }
}

/**
 * A `v.pipe(v.number(), …)` of number validations (`integer`, `safeInteger`, `minValue`,
 * `maxValue`): valibot runs the schema, then each validation while the value is typed; every one
 * only adds an issue, so the verdict is the conjunction.
 */
function compilePipe(s: Node, pipe: unknown): Check | undefined {
  if (s.type !== 'number') return undefined;
  const actions = numberActions(pipe);
  if (actions === undefined) return undefined;
  let integer = false;
  let safe = false;
  let min = Number.NEGATIVE_INFINITY;
  let max = Number.POSITIVE_INFINITY;
  for (const a of actions) {
    if (typeof a !== 'object' || a === null || a.kind !== 'validation') return undefined;
    if (a.type === 'integer') integer = true;
    else if (a.type === 'safe_integer') safe = true;
    else if (a.type === 'min_value' && typeof a.requirement === 'number' && !Number.isNaN(a.requirement)) {
      // min_value: !(dataset.value >= this.requirement) is an issue
      min = Math.max(min, a.requirement);
    } else if (a.type === 'max_value' && typeof a.requirement === 'number' && !Number.isNaN(a.requirement)) {
      // max_value: !(dataset.value <= this.requirement) is an issue
      max = Math.min(max, a.requirement);
    } else return undefined;
  }
  if (safe) return (x) => typeof x === 'number' && Number.isSafeInteger(x) && x >= min && x <= max;
  if (integer) return (x) => typeof x === 'number' && Number.isInteger(x) && x >= min && x <= max;
  return (x) => typeof x === 'number' && !Number.isNaN(x) && x >= min && x <= max;
}

/**
 * The actions of a pipe that starts with a bare `v.number()` or with another such pipe (nested
 * pipes run whole, in order), flattened; `undefined` for any other pipe.
 */
function numberActions(pipe: unknown): Node[] | undefined {
  if (!Array.isArray(pipe) || pipe.length === 0) return undefined;
  const head = pipe[0] as Node;
  if (typeof head !== 'object' || head === null || head.kind !== 'schema' || head.type !== 'number')
    return undefined;
  const rest = pipe.slice(1) as Node[];
  if (head.pipe === undefined) return rest;
  const inner = numberActions(head.pipe);
  return inner === undefined ? undefined : [...inner, ...rest];
}

/**
 * `object` / `strictObject`: the input is truthy and `typeof 'object'` (arrays too); each entry's
 * key is `in` the input (own or inherited) and its value passes; a strict object also has no
 * enumerable key (`for … in`, inherited ones too) that is not an own key of its entries.
 */
function compileObject(s: Node): Check | undefined {
  const entries = s.entries;
  if (typeof entries !== 'object' || entries === null) return undefined;
  const keys: string[] = [];
  const checks: Check[] = [];
  for (const key in entries) {
    const check = compileNode((entries as Record<string, Node>)[key]!);
    if (check === undefined) return undefined; // optional entries, nested objects, …: valibot's
    keys.push(key);
    checks.push(check);
  }
  const n = keys.length;
  const fields = (x: object): boolean => {
    for (let i = 0; i < n; i++) {
      const key = keys[i]!;
      if (!(key in x) || !checks[i]!((x as Record<string, unknown>)[key])) return false;
    }
    return true;
  };
  if (s.type === 'object') return (x) => typeof x === 'object' && x !== null && fields(x);
  return (x) => {
    if (typeof x !== 'object' || x === null || !fields(x)) return false;
    for (const key in x) if (!hasOwn.call(entries, key)) return false;
    return true;
  };
}
