/*
 * compose()'s argument guard and error texts, the inner objects' error events, and gcs's
 * initial-configuration message. Written against surviving mutants of `npm run test:mutation`
 * (README, "Tests"): the seeded suites never pass a wrong argument nor read an error's text.
 */
import { ConfigurationError, type CSState } from '@critsec/core';
import { majority } from '@critsec/coteries';
import { StubCS } from '@critsec/testing';
import { SimNetwork } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { compose, gcs } from '../src/index.js';

const refused = new ConfigurationError(
  'compose: expected two CS factories or two CS objects of the same process',
);

describe('compose() refuses what is not two factories or two objects', () => {
  const ok = () => new StubCS(0, 'OutCS');
  const whole = { entry: async () => {}, exit: async () => {}, on: () => () => {}, id: 0, state: 'OutCS' };
  const partial = (missing: string) => {
    const o: Record<string, unknown> = { ...whole };
    delete o[missing];
    return o;
  };
  const cases: [string, unknown, unknown][] = [
    ['undefined and an object', undefined, ok()],
    ['an object and undefined', ok(), undefined],
    ['null and an object', null, ok()],
    ['a number and an object', 3, ok()],
    ['an object and a factory', ok(), () => ok()],
    ['an object without entry', partial('entry'), ok()],
    ['an object without exit', ok(), partial('exit')],
    ['an object without on', partial('on'), ok()],
  ];
  for (const [what, a, b] of cases) {
    it(what, () => {
      expect(() => compose(a as never, b as never)).toThrow(refused);
    });
  }
});

describe('compose() of two objects', () => {
  it('names the inner object and the expected configuration when it disagrees', () => {
    expect(() => compose(new StubCS(0, 'InCS'), new StubCS(0, 'OutCS'))).toThrow(
      new ConfigurationError(
        'compose: inner object b is P0 OutCS, expected P0 InCS (Algorithm 3 needs state_i = a.state_i = b.state_i initially, Lemma 5)',
      ),
    );
  });

  it("forwards both inner objects' error events until closed", async () => {
    const a = new StubCS(1, 'OutCS');
    const b = new StubCS(1, 'OutCS');
    const g = compose(a, b);
    const seen: Error[] = [];
    g.on('error', (e) => seen.push(e));
    const ea = new Error('a broke');
    const eb = new Error('b broke');
    a.fail(ea);
    b.fail(eb);
    expect(seen).toEqual([ea, eb]);
    await g.close();
    a.fail(new Error('late'));
    expect(seen).toEqual([ea, eb]);
  });

  it('has inspect() only when both inner objects have one', () => {
    class Inspectable extends StubCS {
      inspect(): unknown {
        return { s: this.state };
      }
    }
    expect(compose(new StubCS(0, 'OutCS'), new StubCS(0, 'OutCS')).inspect).toBeUndefined();
    expect(compose(new Inspectable(0, 'OutCS'), new StubCS(0, 'OutCS')).inspect).toBeUndefined();
    expect(compose(new StubCS(0, 'OutCS'), new Inspectable(0, 'OutCS')).inspect).toBeUndefined();
    expect(compose(new Inspectable(0, 'OutCS'), new Inspectable(0, 'OutCS')).inspect!()).toEqual({
      state: 'OutCS',
      pending: null,
      phase: 'idle',
      a: { s: 'OutCS' },
      b: { s: 'OutCS' },
    });
  });
});

describe('gcs names the processes InCS of an unsafe initial configuration', () => {
  const make = (l: number, k: number, n: number, inCS: number): string => {
    const net = new SimNetwork({ n });
    const initial = Array.from({ length: n }, (_, i): CSState => (i < inCS ? 'InCS' : 'OutCS'));
    try {
      gcs({ l, k, coterie: majority(n) })({ id: 0, n, endpoint: net.endpoint(0), initial });
    } catch (err) {
      return (err as Error).message;
    }
    return 'accepted';
  };
  it('none, up to 8, and more than 8', () => {
    expect(make(1, 3, 12, 0)).toMatch(/: 0 processes InCS, expected between l = 1 and k = 3$/);
    expect(make(0, 8, 12, 9)).toMatch(
      /: 9 process\(es\) InCS \(P0, P1, P2, P3, P4, P5, P6, P7, …\), expected/,
    );
    expect(make(0, 7, 12, 8)).toMatch(/: 8 process\(es\) InCS \(P0, P1, P2, P3, P4, P5, P6, P7\), expected/);
  });
});
