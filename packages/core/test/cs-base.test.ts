import { describe, expect, it } from 'vitest';
import {
  AbortError,
  CSMICError,
  CSObjectBase,
  type CSState,
  isAbortError,
  lease,
  withCS,
} from '../src/index.js';
import { Deferred, onAbort } from '../src/kit.js';

/** A CS object whose entry waits for the test to grant it; counts protocol calls. */
class Gate extends CSObjectBase {
  grant = new Deferred();
  protocolCalls = 0;
  constructor(initial: CSState = 'OutCS') {
    super(0, initial);
  }
  protected async doEntry(_req: void, signal: AbortSignal | undefined): Promise<void> {
    this.protocolCalls++;
    const off = onAbort(signal, (r) => this.grant.reject(new AbortError('entry aborted', { cause: r })));
    try {
      await this.grant.promise;
    } finally {
      off();
    }
  }
  protected async doExit(): Promise<void> {
    this.protocolCalls++;
    this.grant = new Deferred();
  }
  protected doClose(): void {
    this.grant.reject(new AbortError('closed'));
  }
}

describe('CSObjectBase enforces CSMIC', () => {
  it('rejects exit while OutCS without running the protocol', async () => {
    const cs = new Gate();
    await expect(cs.exit()).rejects.toBeInstanceOf(CSMICError);
    expect(cs.protocolCalls).toBe(0);
  });

  it('rejects entry while InCS and a second call in flight', async () => {
    const cs = new Gate();
    const first = cs.entry();
    expect(cs.pending).toBe('entry');
    await expect(cs.entry()).rejects.toThrow(/in flight/);
    await expect(cs.exit()).rejects.toBeInstanceOf(CSMICError);
    expect(cs.protocolCalls).toBe(1);
    cs.grant.resolve();
    await first;
    expect(cs.state).toBe('InCS');
    await expect(cs.entry()).rejects.toThrow(/while InCS/);
    expect(cs.protocolCalls).toBe(1);
  });

  it('fires statechange once per flip, in order', async () => {
    const cs = new Gate();
    const seen: CSState[] = [];
    cs.on('statechange', (s) => seen.push(s));
    cs.grant.resolve();
    await cs.entry();
    await cs.exit();
    expect(seen).toEqual(['InCS', 'OutCS']);
  });

  it('an already-aborted signal rejects with AbortError and runs nothing', async () => {
    const cs = new Gate();
    const ac = new AbortController();
    ac.abort('stop');
    const err = await cs.entry({ signal: ac.signal }).catch((e: unknown) => e);
    expect(isAbortError(err)).toBe(true);
    expect((err as Error).cause).toBe('stop');
    expect(cs.protocolCalls).toBe(0);
    expect(cs.pending).toBeNull();
  });

  it('an abort while waiting leaves the object OutCS and callable again', async () => {
    const cs = new Gate();
    const ac = new AbortController();
    const p = cs.entry({ signal: ac.signal });
    ac.abort();
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    expect(cs.state).toBe('OutCS');
    expect(cs.pending).toBeNull();
    cs.grant = new Deferred();
    cs.grant.resolve();
    await cs.entry();
    expect(cs.state).toBe('InCS');
  });

  it('close rejects the call in flight and every later call', async () => {
    const cs = new Gate();
    const p = cs.entry();
    await cs.close();
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    await expect(cs.entry()).rejects.toThrow(/after close/);
    await cs.close();
  });

  it('a throwing statechange listener is reported as an error event, not thrown', async () => {
    const cs = new Gate();
    const errors: Error[] = [];
    cs.on('error', (e) => errors.push(e));
    cs.on('statechange', () => {
      throw new Error('listener bug');
    });
    cs.grant.resolve();
    await cs.entry();
    expect(cs.state).toBe('InCS');
    expect(errors.map((e) => e.message)).toEqual(['listener bug']);
  });
});

describe('withCS and lease', () => {
  it('withCS exits after fn and also when fn throws', async () => {
    const cs = new Gate();
    cs.grant.resolve();
    expect(await withCS(cs, () => 42)).toBe(42);
    expect(cs.state).toBe('OutCS');
    cs.grant.resolve();
    await expect(
      withCS(cs, () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(cs.state).toBe('OutCS');
  });

  it('lease releases once, at the end of an await using block', async () => {
    const cs = new Gate();
    cs.grant.resolve();
    {
      await using held = await lease(cs);
      expect(cs.state).toBe('InCS');
      expect(held.released).toBe(false);
    }
    expect(cs.state).toBe('OutCS');
    cs.grant.resolve();
    const held = await lease(cs);
    await held.release();
    await held.release();
    await held[Symbol.asyncDispose]();
    expect(cs.protocolCalls).toBe(4);
  });
});

describe('coverage marks', () => {
  it('collects reach() labels only while a collector runs', async () => {
    const { collectReached, reach } = await import('../src/kit.js');
    reach('x:before');
    const c = collectReached();
    reach('x:a');
    reach('x:a');
    reach('x:b');
    c.stop();
    reach('x:after');
    expect([...c.counts]).toEqual([
      ['x:a', 2],
      ['x:b', 1],
    ]);
    expect(c.missing(['x:a', 'x:c'])).toEqual(['x:c']);
  });
});
