/*
 * An algorithm's parameters (the descriptor contract, descriptor.ts): the valibot schema each
 * descriptor declares them with — one described entry per parameter, from which the `critsec`
 * command line derives its `--<name>` flags and help and against which a cluster configuration's
 * `params` is checked — and the parsing of their values, shared by every descriptor: integers,
 * non-negative numbers, choices among fixed words, the initial configuration (`init`). Every bad
 * value is a `ConfigurationError` whose one-line message says what was wrong and what is accepted
 * (the CLI turns it into exit code 2).
 */
import * as v from 'valibot';
import { ConfigurationError } from './errors.js';
import type { CSState } from './process.js';

/** One parameter's value: a command line gives a string, a program or a JSON file a number or a string. */
export type ParamValue = number | string;

/** The schema of one parameter: optional, a number or a string, with its one-line description. */
export type ParamSchema = v.SchemaWithPipe<
  readonly [
    v.OptionalSchema<
      v.UnionSchema<[v.NumberSchema<undefined>, v.StringSchema<undefined>], undefined>,
      undefined
    >,
    v.DescriptionAction<ParamValue | undefined, string>,
  ]
>;

/**
 * Declares one parameter: optional, a number or a string (a command line gives strings), with the
 * line of help the CLI prints beside `--<name>`. Its value is parsed and range-checked by the
 * descriptor's `build` (with {@link parseInteger}, {@link parseChoice}, …), which owns the message.
 */
export function param(description: string): ParamSchema {
  return v.pipe(v.optional(v.union([v.number(), v.string()])), v.description(description));
}

/** The parameters an algorithm takes, by name (the flag `--<name>`). */
export type ParamEntries = Readonly<Record<string, ParamSchema>>;

/** The schema of an algorithm's parameters: a strict object of {@link param}s (unknown names refused). */
export type ParamsSchema<E extends ParamEntries = ParamEntries> = v.StrictObjectSchema<E, undefined>;

/** The parameter values a {@link ParamsSchema} accepts: each optional, a number or a string. */
export type ParamValues<E extends ParamEntries = ParamEntries> = { readonly [K in keyof E]?: ParamValue };

/** Declares an algorithm's parameters (see {@link param}). */
export function params<E extends ParamEntries>(entries: E): ParamsSchema<E> {
  return v.strictObject(entries);
}

/** A parameter's name and its line of help. */
export interface ParamDescription {
  /** The parameter's name (the flag `--<name>`). */
  readonly name: string;
  /** Its one-line description. */
  readonly description: string;
}

/** The names and one-line descriptions of a schema's parameters, in declaration order. */
export function describeParams(schema: ParamsSchema): ParamDescription[] {
  return Object.entries(schema.entries).map(([name, entry]) => ({
    name,
    description: v.getDescription(entry) ?? '',
  }));
}

/**
 * Checks `values` against `schema` for algorithm `algorithm`: only its parameters, each a number
 * or a string (ranges and words are the descriptor's `build`'s to check).
 * @throws ConfigurationError naming the parameter and listing the accepted ones.
 */
export function checkParams<E extends ParamEntries>(
  algorithm: string,
  schema: ParamsSchema<E>,
  values: unknown,
): ParamValues<E> {
  const accepted = Object.keys(schema.entries);
  const list = accepted.length === 0 ? 'none' : accepted.join(', ');
  if (values === null || typeof values !== 'object' || Array.isArray(values)) {
    throw new ConfigurationError(`${algorithm}: its parameters must be an object; it takes ${list}`);
  }
  for (const key of Object.keys(values)) {
    if (!Object.hasOwn(schema.entries, key)) {
      throw new ConfigurationError(`${algorithm} takes no parameter '${key}'; it takes ${list}`);
    }
  }
  const r = v.safeParse(schema, values);
  if (!r.success) {
    const key = r.issues[0]?.path?.[0]?.key;
    throw new ConfigurationError(
      `${algorithm}: parameter '${String(key)}' must be a number or a string, got ${JSON.stringify(r.issues[0]?.input)}`,
    );
  }
  return r.output as ParamValues<E>;
}

/**
 * Parses an integer option.
 * @throws ConfigurationError `--name must be an integer ≥ min, got '…'`.
 */
export function parseInteger(name: string, value: number | string, min: number, max?: number): number {
  const text = String(value).trim();
  const x = typeof value === 'number' ? value : /^[+-]?\d+$/.test(text) ? Number(text) : Number.NaN;
  const range = max === undefined ? `≥ ${min}` : `in ${min}..${max}`;
  if (!Number.isSafeInteger(x) || x < min || (max !== undefined && x > max)) {
    throw new ConfigurationError(`--${name} must be an integer ${range}, got '${text}'`);
  }
  return x;
}

/**
 * Parses a non-negative number option (times).
 * @throws ConfigurationError `--name must be a number ≥ 0, got '…'`.
 */
export function parseNonNegative(name: string, value: number | string): number {
  const text = String(value).trim();
  const x = typeof value === 'number' ? value : text === '' ? Number.NaN : Number(text);
  if (!Number.isFinite(x) || x < 0)
    throw new ConfigurationError(`--${name} must be a number ≥ 0, got '${text}'`);
  return x;
}

/** The time-bounded grant parameters of an algorithm descriptor (issue 28), parsed. */
export interface GrantParams {
  /** Fencing tokens on (`--fencing true`) or off. */
  readonly fencing?: boolean;
  /** The grants' ttl, in the unit of `ProcessContext.clock` (ms real, time units simulated). */
  readonly ttl?: number;
  /** The drift margin, same unit as `ttl`. */
  readonly driftMargin?: number;
}

/**
 * Parses the `fencing`, `ttl` and `driftMargin` parameters every algorithm with time-bounded
 * grants takes (issue 28), leaving out those not given. Their cross-checks (a margin below the
 * ttl, …) are the factory's.
 * @throws ConfigurationError for a `fencing` that is not `true`/`false`, or a time that is not a number ≥ 0.
 */
export function parseGrantParams(values: { readonly [k: string]: string | number | undefined }): GrantParams {
  const f = values.fencing;
  if (f !== undefined && !['true', 'false'].includes(String(f)))
    throw new ConfigurationError(`--fencing must be true or false, got '${String(f)}'`);
  return {
    ...(f === undefined ? {} : { fencing: String(f) === 'true' }),
    ...(values.ttl === undefined ? {} : { ttl: parseNonNegative('ttl', values.ttl) }),
    ...(values.driftMargin === undefined
      ? {}
      : { driftMargin: parseNonNegative('driftMargin', values.driftMargin) }),
  };
}

/** {@link GrantParams} as a descriptor build's `options` (strings and numbers, as given). */
export function grantParamValues(g: GrantParams): Record<string, string | number> {
  const { fencing, ...times } = g;
  return fencing === undefined ? times : { ...times, fencing: `${fencing}` };
}

/**
 * Parses one of a fixed set of words.
 * @throws ConfigurationError `unknown <what> '…'; accepted: a, b, c`.
 */
export function parseChoice<T extends string>(what: string, value: string, accepted: readonly T[]): T {
  if ((accepted as readonly string[]).includes(value)) return value as T;
  throw new ConfigurationError(`unknown ${what} '${value}'; accepted: ${accepted.join(', ')}`);
}

/** A configuration in words, e.g. `P0–P2 InCS, the rest OutCS`. */
export function describeInitial(initial: readonly CSState[]): string {
  const ids = initial.flatMap((s, i) => (s === 'InCS' ? [i] : []));
  if (ids.length === 0) return 'every process OutCS';
  if (ids.length === initial.length) return 'every process InCS';
  const contiguous = ids.every((id, t) => id === t);
  const who = contiguous
    ? ids.length === 1
      ? 'P0'
      : `P0–P${ids.length - 1}`
    : ids.length <= 8
      ? ids.map((i) => `P${i}`).join(', ')
      : `${ids
          .slice(0, 8)
          .map((i) => `P${i}`)
          .join(', ')}, … (${ids.length} processes)`;
  return `${who} InCS, the rest OutCS`;
}

/**
 * Parses `--init` for n processes: `default`, `none`, `all`, `first:M` or the ids InCS (`0,4,7`); `defaultInCS` is the number of
 * processes InCS under `default`.
 * @throws ConfigurationError for an unknown form or a process id out of range.
 */
export function parseInit(text: string, n: number, defaultInCS: number): CSState[] {
  const t = text.trim();
  const states = (inCS: (i: number) => boolean): CSState[] =>
    Array.from({ length: n }, (_, i) => (inCS(i) ? 'InCS' : 'OutCS'));
  if (t === 'default') return states((i) => i < defaultInCS);
  if (t === 'none') return states(() => false);
  if (t === 'all') return states(() => true);
  const first = /^first:(\d+)$/.exec(t);
  if (first) {
    const m = Number(first[1]);
    if (m > n) throw new ConfigurationError(`--init first:${m}: there are only n = ${n} processes`);
    return states((i) => i < m);
  }
  if (/^\d+(,\d+)*$/.test(t)) {
    const ids = new Set(t.split(',').map(Number));
    for (const id of ids) {
      if (id >= n) {
        throw new ConfigurationError(`--init: process ${id} is out of range; processes are 0..${n - 1}`);
      }
    }
    return states((i) => ids.has(i));
  }
  throw new ConfigurationError(
    `--init '${text}' is not understood; accepted: default, none, all, first:M, or the ids InCS as a list like 0,3,7`,
  );
}

/** The bounds l and k of the global (l,k)-CS as given, `undefined` when left out. */
export interface GivenLK {
  /** l, or `undefined`. */
  readonly l: number | undefined;
  /** k, or `undefined`. */
  readonly k: number | undefined;
}

/**
 * Parses the optional parameters `l` and `k` of the global (l,k)-CS as given (`undefined` when
 * left out): l an integer ≥ 0, k an integer ≥ 1.
 * @throws ConfigurationError from {@link parseInteger}.
 */
export function parseGivenLK(values: {
  /** The lower bound as given. */
  readonly l?: ParamValue;
  /** The upper bound as given. */
  readonly k?: ParamValue;
}): GivenLK {
  return {
    l: values.l === undefined ? undefined : parseInteger('l', values.l, 0),
    k: values.k === undefined ? undefined : parseInteger('k', values.k, 1),
  };
}

/**
 * Checks the bounds of the global (l,k)-CS over n processes: 0 ≤ l < k ≤ n.
 * @throws ConfigurationError naming the bound that fails.
 */
export function checkGlobalLK(l: number, k: number, n: number): void {
  if (l >= k) {
    throw new ConfigurationError(
      `--l must be smaller than --k: the (l,k)-CS needs 0 ≤ l < k ≤ n; got l = ${l}, k = ${k} (n = ${n})`,
    );
  }
  if (k > n) {
    throw new ConfigurationError(
      `--k must be at most --n: the (l,k)-CS needs 0 ≤ l < k ≤ n; got k = ${k}, n = ${n}`,
    );
  }
}

/** An initial configuration and its description. */
export interface InitialConfiguration {
  /** One state per process. */
  readonly initial: CSState[];
  /** In words, e.g. `P0–P2 InCS, the rest OutCS`. */
  readonly initialDescription: string;
}

/**
 * The initial configuration `init` of the (l,k)-CS over n processes (`default`: the first l
 * InCS), and its description.
 * @throws ConfigurationError when it is not understood or not safe (fewer than l or more than k InCS).
 */
export function parseGlobalInitial(init: string, n: number, l: number, k: number): InitialConfiguration {
  const initial = parseInit(init, n, l);
  const inCS = initial.filter((s) => s === 'InCS').length;
  if (inCS < l || inCS > k) {
    throw new ConfigurationError(
      `--init ${init}: ${inCS} process(es) InCS is not a safe initial configuration for the (${l},${k})-CS over ${n} processes; it needs between ${l} and ${k} InCS (e.g. --init first:${l})`,
    );
  }
  return {
    initial,
    initialDescription: `${describeInitial(initial)}${init === 'default' ? ' (default: the first l InCS)' : ''}`,
  };
}

/**
 * Parses `init` for a problem whose processes all start OutCS (h-out-of-k, group-mutex):
 * `default`, `none`, or any form with no process InCS.
 * @throws ConfigurationError naming `why` when a process would start InCS.
 */
export function parseAllOutCS(init: string, n: number, algorithm: string, why: string): CSState[] {
  const initial = parseInit(init === 'default' ? 'none' : init, n, 0);
  if (initial.some((s) => s === 'InCS')) {
    throw new ConfigurationError(
      `--init ${init}: ${algorithm} starts every process OutCS (${why}); leave --init out or give none`,
    );
  }
  return initial;
}
