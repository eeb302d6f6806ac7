/**
 * Issue 15 ("`maekawa(...)` accepts an `initial` of the wrong length or with unknown states"):
 * the same hole here — refused with a ConfigurationError naming the value, before any message.
 */
import { ConfigurationError, type CSState } from '@critsec/core';
import { SimNetwork } from '@critsec/transport-sim';
import { expect, it } from 'vitest';
import { surficial } from '@critsec/coteries';
import { groupMutex } from '../src/index.js';

const factory = groupMutex({ system: surficial(4, 2), variant: 'M' });

function thrown(initial: readonly unknown[]): unknown {
  const net = new SimNetwork({ n: 4 });
  try {
    factory({ id: 0, n: 4, endpoint: net.endpoint(0), initial: initial as CSState[] });
    return null;
  } catch (err) {
    return err;
  } finally {
    expect(net.counters().sent).toBe(0);
  }
}

const good: readonly string[] = ['OutCS', 'OutCS', 'OutCS', 'OutCS'];

it('refuses an initial configuration with an unknown state, naming the process and the state', () => {
  for (const bad of ['bogus', 'incs', undefined]) {
    const err = thrown([...good.slice(0, -1), bad]);
    expect(err).toBeInstanceOf(ConfigurationError);
    expect((err as Error).message).toMatch(new RegExp(`^groupMutex: .*P3 is ${String(bad)}`));
  }
});

it('refuses one of the wrong length', () => {
  for (const initial of [good.slice(0, -1), [...good, 'OutCS']])
    expect(thrown(initial)).toBeInstanceOf(ConfigurationError);
});

it('accepts a well-formed one', () => {
  expect(thrown(good)).toBeNull();
});
