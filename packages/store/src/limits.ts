import { ConfigurationError } from '@critsec/core';
import { StoreError } from './errors.js';
import type { JsonValue, OpenOptions } from './types.js';

/** The bounds of one store, resolved from {@link OpenOptions}. */
export interface StoreLimits {
  readonly maxKeyBytes: number;
  readonly maxValueBytes: number;
}

const KEY_CEILING = 511; // well under LMDB's largest key (1978 bytes in lmdb-js), with the record prefix
const VALUE_CEILING = 16 * 1024 * 1024;

/** Validate the bounds of `options` (ConfigurationError names the offending one). */
export function limitsOf(options: OpenOptions): StoreLimits {
  const maxKeyBytes = options.maxKeyBytes ?? 256;
  const maxValueBytes = options.maxValueBytes ?? 65_536;
  if (!Number.isInteger(maxKeyBytes) || maxKeyBytes < 1 || maxKeyBytes > KEY_CEILING) {
    throw new ConfigurationError(`maxKeyBytes must be an integer in 1..${KEY_CEILING}, got ${maxKeyBytes}`);
  }
  if (!Number.isInteger(maxValueBytes) || maxValueBytes < 1 || maxValueBytes > VALUE_CEILING) {
    throw new ConfigurationError(
      `maxValueBytes must be an integer in 1..${VALUE_CEILING}, got ${maxValueBytes}`,
    );
  }
  if (typeof options.cluster !== 'string' || options.cluster.length === 0) {
    throw new ConfigurationError('cluster must be a non-empty string');
  }
  if (!Number.isInteger(options.member) || options.member < 0) {
    throw new ConfigurationError(`member must be a process id (an integer ≥ 0), got ${options.member}`);
  }
  if (options.mode !== 'create' && options.mode !== 'recover') {
    throw new ConfigurationError(`mode must be 'create' or 'recover', got ${String(options.mode)}`);
  }
  return { maxKeyBytes, maxValueBytes };
}

const utf8 = new TextEncoder();

/**
 * Check one staged record against `limits` and return the value's JSON text (`undefined` for a
 * delete).
 */
export function checkRecord(
  limits: StoreLimits,
  key: string,
  value: JsonValue | undefined,
): string | undefined {
  if (typeof key !== 'string' || key.length === 0) {
    throw new ConfigurationError(`a record key must be a non-empty string, got ${JSON.stringify(key)}`);
  }
  const keyBytes = utf8.encode(key).length;
  if (keyBytes > limits.maxKeyBytes) {
    throw new StoreError(
      'oversized',
      `record key of ${keyBytes} bytes exceeds maxKeyBytes = ${limits.maxKeyBytes}`,
    );
  }
  if (value === undefined) return undefined;
  const text = jsonText(key, value);
  const valueBytes = utf8.encode(text).length;
  if (valueBytes > limits.maxValueBytes) {
    throw new StoreError(
      'oversized',
      `record ${JSON.stringify(key)}: value of ${valueBytes} bytes exceeds maxValueBytes = ${limits.maxValueBytes}`,
    );
  }
  return text;
}

function jsonText(key: string, value: JsonValue): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value, function (this: Record<string, unknown>, k: string, v: unknown) {
      const raw = this[k]; // before toJSON: a Date is refused, not turned into a string
      if (typeof raw === 'number' && !Number.isFinite(raw)) throw new Error(`non-finite number ${raw}`);
      if (
        raw !== null &&
        typeof raw === 'object' &&
        !Array.isArray(raw) &&
        Object.getPrototypeOf(raw) !== Object.prototype
      ) {
        throw new Error('an object that is not a plain object');
      }
      if (
        raw === undefined ||
        typeof raw === 'function' ||
        typeof raw === 'symbol' ||
        typeof raw === 'bigint'
      ) {
        throw new Error(`a ${typeof raw}`);
      }
      return v;
    });
  } catch (cause) {
    throw new ConfigurationError(
      `record ${JSON.stringify(key)}: value is not JSON (${(cause as Error).message})`,
      { cause },
    );
  }
  if (text === undefined) throw new ConfigurationError(`record ${JSON.stringify(key)}: value is not JSON`);
  return text;
}
