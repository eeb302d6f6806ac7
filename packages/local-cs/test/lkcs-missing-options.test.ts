/**
 * `lkcs(options)` called without options (from JavaScript, or with a cast) throws a
 * `ConfigurationError` naming the missing graph, not a `TypeError` — as the other factories do.
 */
import { ConfigurationError } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import { lkcs } from '../src/lkcs.js';
import type { LkcsOptions } from '../src/lkcs-protocol.js';

describe('lkcs without options', () => {
  it('throws a ConfigurationError about the graph', () => {
    for (const options of [undefined, null]) {
      expect(() => lkcs(options as unknown as LkcsOptions)).toThrow(ConfigurationError);
      expect(() => lkcs(options as unknown as LkcsOptions)).toThrow(
        /^lkcs\(\{ graph \}\): graph must be a Graph/,
      );
    }
  });
});
