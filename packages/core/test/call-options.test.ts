import { describe, expect, it } from 'vitest';
import { ConfigurationError, CSObjectBase, type CSState } from '../src/index.js';

/** A CS object that grants at once; counts protocol calls. `takesRequest` as given. */
class Instant extends CSObjectBase<unknown> {
  protocolCalls = 0;
  constructor(initial: CSState = 'OutCS', takesRequest = false) {
    super(0, initial, { takesRequest });
  }
  protected async doEntry(): Promise<void> {
    this.protocolCalls++;
  }
  protected async doExit(): Promise<void> {
    this.protocolCalls++;
  }
  protected doClose(): void {}
}

type AnyEntry = (...args: unknown[]) => Promise<void>;
const entryOf = (cs: Instant) => cs.entry.bind(cs) as unknown as AnyEntry;
const exitOf = (cs: Instant) => cs.exit.bind(cs) as unknown as (opts?: unknown) => Promise<void>;

describe('entry() / exit() options are checked before the protocol runs', () => {
  it.each([
    [{ signal: {} }, 'signal must be an AbortSignal, got an object'],
    [{ signal: 'stop' }, "signal must be an AbortSignal, got 'stop'"],
    [{ signal: null }, 'signal must be an AbortSignal, got null'],
    [3, 'the options { signal? } must be an object, got 3'],
    [null, 'the options { signal? } must be an object, got null'],
  ])('entry(%j) rejects with a ConfigurationError naming the value', async (opts, message) => {
    const cs = new Instant();
    const err = await entryOf(cs)(opts).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigurationError);
    expect((err as Error).message).toBe(`entry() on P0: ${message}`);
    expect(cs.protocolCalls).toBe(0);
    expect(cs.pending).toBe(null);
    expect(cs.state).toBe('OutCS');
  });

  it('exit({ signal: {} }) and entry(req, { signal: {} }) of an object that takes a request', async () => {
    const inCS = new Instant('InCS');
    await expect(exitOf(inCS)({ signal: {} })).rejects.toThrow(
      new ConfigurationError('exit() on P0: signal must be an AbortSignal, got an object'),
    );
    expect(inCS.protocolCalls).toBe(0);
    const withRequest = new Instant('OutCS', true);
    await expect(entryOf(withRequest)(2, { signal: 1 })).rejects.toThrow(
      /^entry\(\) on P0: signal must be an AbortSignal, got 1$/,
    );
    expect(withRequest.protocolCalls).toBe(0);
  });

  it('accepts no options, {}, { signal: undefined } and a real signal', async () => {
    const cs = new Instant();
    await entryOf(cs)();
    await exitOf(cs)({});
    await entryOf(cs)({ signal: undefined });
    await exitOf(cs)({ signal: new AbortController().signal });
    expect(cs.protocolCalls).toBe(4);
  });
});
