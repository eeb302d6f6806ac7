/*
 * The argument and configuration guards of complement(), and the inner object's `error` events.
 * Written against the surviving mutants of `npm run test:mutation` (see README, "How we test"):
 * each case pins one decision that the seeded compliance runs never reach.
 */
import { ConfigurationError, type CSFactory } from '@critsec/core';
import { StubCS } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { complement } from '../src/index.js';

const noop = (): void => {};
const refused = /expected a CS factory, a CS object or a global\/local problem spec, got /;

function refusal(x: unknown): ConfigurationError {
  try {
    complement(x as never);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigurationError);
    return err as ConfigurationError;
  }
  throw new Error('complement() accepted the argument');
}

describe('complement() refuses what is neither a factory, an object nor a spec', () => {
  it('names null as null and other values by their type', () => {
    expect(refusal(null).message).toMatch(/got null$/);
    expect(refusal(undefined).message).toMatch(/got undefined$/);
    expect(refusal(42).message).toMatch(/got number$/);
    expect(refusal('mutex').message).toMatch(/got string$/);
  });

  it('an object missing entry, exit or on is no CS object (nor a spec without a string kind)', () => {
    const whole = { entry: async () => {}, exit: async () => {}, on: () => noop };
    for (const missing of ['entry', 'exit', 'on'] as const) {
      const partial: Record<string, unknown> = { ...whole, id: 0, state: 'OutCS' };
      delete partial[missing];
      expect(refusal(partial).message, `without ${missing}`).toMatch(refused);
    }
    expect(refusal({}).message).toMatch(/got object$/);
    expect(refusal({ kind: 1, n: 3, l: 0, k: 1 }).message).toMatch(refused);
  });
});

describe('complement() configuration errors say what went wrong', () => {
  it('a request-taking object without request: the message tells both ways out', () => {
    const err = refusal(new StubCS<number>(1, 'OutCS', { takesRequest: true }));
    expect(err.message).toContain("P1's object takes a request");
    expect(err.message).toContain('complement a plain (Req = void) CS object');
  });

  it('an inner factory that makes the right state for the wrong process is refused', () => {
    const wrongId: CSFactory = (ctx) => new StubCS((ctx.id + 1) % ctx.n, ctx.initial[ctx.id]!);
    const factory = complement(wrongId);
    const ctx = { id: 0, n: 3, endpoint: undefined as never, initial: ['OutCS', 'OutCS', 'OutCS'] as const };
    expect(() => factory(ctx)).toThrow(ConfigurationError);
    expect(() => factory(ctx)).toThrow(
      'complement: the inner factory made P1 InCS for process 0, but the flipped initial configuration says P0 InCS',
    );
  });
});

describe('complement() validates the initial configuration itself', () => {
  // an inner factory that trusts its context, as a user's may: it must never see a bad one
  const trusting: CSFactory = (ctx) => new StubCS(ctx.id, ctx.initial[ctx.id]!);
  it.each([
    [['OutCS', 'Fooled', 'OutCS'], "initial state of P1 is Fooled, expected 'InCS' or 'OutCS'"],
    [['OutCS', 'OutCS'], 'initial configuration has 2 states, expected n = 3'],
  ])('%j is refused before the inner factory runs', (initial, message) => {
    let innerCalls = 0;
    const factory = complement((ctx) => {
      innerCalls++;
      return trusting(ctx);
    });
    const ctx = { id: 0, n: 3, endpoint: undefined as never, initial: initial as never };
    expect(() => factory(ctx)).toThrow(ConfigurationError);
    expect(() => factory(ctx)).toThrow(message);
    expect(innerCalls).toBe(0);
  });
});

describe('the view forwards the inner object`s error events', () => {
  it('an error reported by the inner object reaches the view`s listeners, until the view closes', async () => {
    const inner = new StubCS(0, 'OutCS');
    const co = complement(inner);
    const seen: Error[] = [];
    co.on('error', (e) => seen.push(e));
    const boom = new Error('unexpected message');
    inner.fail(boom);
    expect(seen).toEqual([boom]);
    await co.close();
    inner.fail(new Error('after close'));
    expect(seen).toEqual([boom]);
  });
});
