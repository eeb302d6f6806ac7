/**
 * Issue 15: `maekawa(...)` accepted an `initial` of the wrong length or with unknown states.
 * Both factories now refuse them with a ConfigurationError naming the value, before any message.
 */
import { ConfigurationError, type CSFactory, type CSState } from '@critsec/core';
import { majority } from '@critsec/coteries';
import { SimNetwork } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { maekawa, ricartAgrawala } from '../src/index.js';

function thrown(factory: CSFactory, initial: readonly unknown[]): unknown {
  const net = new SimNetwork({ n: 3 });
  try {
    factory({ id: 0, n: 3, endpoint: net.endpoint(0), initial: initial as CSState[] });
    return null;
  } catch (err) {
    return err;
  } finally {
    expect(net.counters().sent).toBe(0);
  }
}

describe.each([
  ['maekawa', maekawa({ coterie: majority(3) })],
  ['ricartAgrawala', ricartAgrawala()],
] as const)('%s refuses a malformed initial configuration', (name, factory) => {
  it('of the wrong length, naming both lengths', () => {
    for (const initial of [['OutCS', 'OutCS'], ['OutCS', 'OutCS', 'OutCS', 'OutCS'], []]) {
      const err = thrown(factory, initial);
      expect(err).toBeInstanceOf(ConfigurationError);
      expect((err as Error).message).toMatch(
        new RegExp(`^${name}: .*${initial.length} states, expected n = 3`),
      );
    }
  });

  it('with an unknown state, naming the process and the state', () => {
    for (const bad of ['incs', 'Waiting', undefined, 1]) {
      const err = thrown(factory, ['OutCS', bad, 'OutCS']);
      expect(err).toBeInstanceOf(ConfigurationError);
      expect((err as Error).message).toMatch(new RegExp(`^${name}: .*P1 is ${String(bad)}`));
    }
  });

  it('accepts a well-formed one', () => {
    expect(thrown(factory, ['OutCS', 'InCS', 'OutCS'])).toBeNull();
  });
});
