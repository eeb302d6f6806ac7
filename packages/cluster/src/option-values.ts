/*
 * Parsing of option values, shared by every algorithm family and by the `critsec` command line:
 * integers, non-negative numbers, choices among fixed words, `--init`. Every bad value is a
 * `ConfigurationError` whose one-line message says what was wrong and what is accepted (the
 * CLI turns it into exit code 2).
 */
import { ConfigurationError, type CSState } from '@critsec/core';

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
 * Parses `--init` for n processes (see {@link ClusterInput.init}); `defaultInCS` is the number of
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
