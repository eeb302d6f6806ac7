import {
  AbortError,
  ConfigurationError,
  type CSFactory,
  CSObjectBase,
  type CSState,
  type Endpoint,
  globalSpec,
  mutexSpec,
  type ProcessContext,
} from '@critsec/core';
import { createCluster, runWorkload } from '@critsec/harness';
import { centralMutex } from '@critsec/testing';
import { SimNetwork } from '@critsec/transport-sim';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { type ComplementObject, complement } from '../src/index.js';

/** A user-written, request-taking CS object (entry(h) records the request). */
class Units extends CSObjectBase<number> {
  readonly requests: number[] = [];
  closedCalls = 0;
  constructor(id: number, state: CSState) {
    super(id, state, { takesRequest: true });
  }
  protected async doEntry(h: number): Promise<void> {
    this.requests.push(h);
  }
  protected async doExit(): Promise<void> {}
  protected doClose(): void {
    this.closedCalls++;
  }
}

/** A user-written plain object whose state only moves when told to. */
class Manual extends CSObjectBase {
  readonly endpoint: Endpoint | undefined;
  release: (() => void) | undefined;
  constructor(id: number, state: CSState, endpoint?: Endpoint) {
    super(id, state);
    this.endpoint = endpoint;
  }
  protected doEntry(): Promise<void> {
    return new Promise((resolve) => {
      this.release = resolve;
    });
  }
  protected async doExit(): Promise<void> {}
  protected doClose(): void {}
  inspect(): unknown {
    return { s: this.state };
  }
}

describe('complement of a live CS object (a view sharing it)', () => {
  it('swaps state, entry/exit and statechange; both handles move together', async () => {
    const inner = new Manual(2, 'OutCS');
    const co = complement(inner);
    expect(co.id).toBe(2);
    expect(co.state).toBe('InCS');
    expect(co.inner).toBe(inner);
    const seen: CSState[] = [];
    co.on('statechange', (s) => seen.push(s));
    const exiting = co.exit(); // = inner.entry(), which waits for `release`
    expect(co.pending).toBe('exit');
    expect(inner.pending).toBe('entry');
    expect(co.state).toBe('InCS');
    inner.release!();
    await exiting;
    expect(co.pending).toBe(null);
    expect(co.state).toBe('OutCS');
    expect(inner.state).toBe('InCS');
    const p = co.entry(); // = inner.exit()
    await p;
    expect(co.state).toBe('InCS');
    const direct = inner.entry(); // calling the inner object directly moves the view too
    inner.release!();
    await direct;
    expect(co.state).toBe('OutCS');
    // … both ways: the inner object leaving by itself (inner OutCS) puts the view InCS, at once
    const leaving = inner.exit();
    await leaving;
    expect(inner.state).toBe('OutCS');
    expect(co.state).toBe('InCS');
    expect(co.pending).toBe(null);
    expect(seen).toEqual(['OutCS', 'InCS', 'OutCS', 'InCS']);
  });

  it('the view flips at the instant of the inner flip, before the inner call settles', async () => {
    const inner = new Manual(1, 'InCS');
    const co = complement(inner); // view OutCS
    const atFlip: CSState[] = [];
    inner.on('statechange', () => atFlip.push(co.state));
    const direct = inner.exit(); // inner leaves directly: the view enters
    await direct;
    expect(atFlip).toEqual(['InCS']);
    const entering = inner.entry();
    inner.release!();
    await entering;
    expect(atFlip).toEqual(['InCS', 'OutCS']);
  });

  it('enforces CSMIC on the view and forwards the inner rejections', async () => {
    const inner = new Manual(0, 'InCS');
    const co = complement(inner);
    await expect(co.exit()).rejects.toMatchObject({ code: 'CSMIC' }); // view is OutCS
    const pending = co.entry(); // inner.exit
    await expect(co.entry()).rejects.toMatchObject({ code: 'CSMIC' });
    await pending;
  });

  it('passes the abort signal through (Co-A aborts where A does)', async () => {
    const cluster = createCluster({
      factory: centralMutex(),
      spec: mutexSpec(2),
      initial: ['InCS', 'OutCS'],
    });
    const co = complement(cluster.objects[1]!); // OutCS of the mutex = InCS of the view
    const ac = new AbortController();
    const blocked = co.exit({ signal: ac.signal }); // = mutex entry, blocked by P0
    await cluster.net.run();
    ac.abort('changed my mind');
    await expect(blocked).rejects.toBeInstanceOf(AbortError);
    expect(co.state).toBe('InCS');
    expect(cluster.objects[1]!.state).toBe('OutCS');
  });

  it('closing the view closes the inner object', async () => {
    const inner = new Units(0, 'OutCS');
    const co = complement(inner, { request: () => 1 });
    await co.close();
    expect(inner.closedCalls).toBe(1);
    await expect(inner.entry(1)).rejects.toMatchObject({ code: 'CSMIC' });
  });

  it('exposes inspect() only when the inner object has one', () => {
    expect(complement(new Manual(0, 'OutCS')).inspect?.()).toEqual({ inner: { s: 'OutCS' } });
    expect(complement(new Units(0, 'OutCS'), { request: () => 1 }).inspect).toBeUndefined();
  });
});

describe('the request parameter', () => {
  it('is refused with a ConfigurationError when Co-A.exit() would need one', () => {
    // @ts-expect-error a request-taking object needs { request }
    const attempt = () => complement(new Units(0, 'OutCS'));
    expect(attempt).toThrow(ConfigurationError);
    expect(attempt).toThrow(/takes a request.*\{ request: \(id\) => req \}/);
  });

  it('is passed through to the inner entry(req) by Co-A.exit() when given', async () => {
    const inner = new Units(3, 'OutCS');
    const co = complement(inner, { request: (id) => 10 + id });
    expectTypeOf(co).toEqualTypeOf<ComplementObject<number>>();
    expectTypeOf(co.entry).parameters.toEqualTypeOf<[opts?: { readonly signal?: AbortSignal | undefined }]>();
    await co.exit();
    await co.entry();
    await co.exit();
    expect(inner.requests).toEqual([13, 13]);
  });

  it('a request-taking factory is refused when the object is made, and the inner object is closed', () => {
    let made: Units | undefined;
    const factory: CSFactory<number> = (ctx) => {
      made = new Units(ctx.id, ctx.initial[ctx.id]!);
      return made;
    };
    // @ts-expect-error needs { request }
    const co = complement(factory);
    const net = new SimNetwork({ n: 1 });
    expect(() => co({ id: 0, n: 1, endpoint: net.endpoint(0), initial: ['OutCS'] })).toThrow(
      ConfigurationError,
    );
    expect(made?.closed).toBe(true);
    expect(() => complement(factory, { request: 3 as never })).toThrow(/request must be a function/);
  });
});

describe('complement of a factory', () => {
  it('flips the initial configuration before handing it down, on the same endpoint', () => {
    const seen: ProcessContext[] = [];
    const factory: CSFactory = (ctx) => {
      seen.push(ctx);
      return new Manual(ctx.id, ctx.initial[ctx.id]!, ctx.endpoint);
    };
    const net = new SimNetwork({ n: 3 });
    const initial: CSState[] = ['InCS', 'OutCS', 'OutCS'];
    const objects = [0, 1, 2].map((id) =>
      complement(factory)({ id, n: 3, endpoint: net.endpoint(id), initial }),
    );
    expect(seen.map((c) => c.initial)).toEqual([0, 1, 2].map(() => ['OutCS', 'InCS', 'InCS']));
    expect(objects.map((o) => o.state)).toEqual(initial);
    expect(seen[1]!.endpoint).toBe(net.endpoint(1));
    expect((objects[1] as ComplementObject).inner.state).toBe('InCS');
  });

  it('refuses an inner factory that ignores the flipped configuration', () => {
    const stubborn: CSFactory = (ctx) => new Manual(ctx.id, 'OutCS');
    const net = new SimNetwork({ n: 2 });
    expect(() =>
      complement(stubborn)({ id: 0, n: 2, endpoint: net.endpoint(0), initial: ['OutCS', 'OutCS'] }),
    ).toThrow(/flipped initial configuration says P0 InCS/);
  });

  it('Co-(central mutex) solves (n−1, n)-mutual inclusion; the double complement is mutual exclusion again', async () => {
    const n = 4;
    const co = createCluster({
      factory: complement(centralMutex()),
      spec: globalSpec(n - 1, n, n),
      initial: ['InCS', 'InCS', 'InCS', 'InCS'],
      seed: 9,
    });
    const r = await runWorkload(co, { rounds: 3 });
    expect(r.ok, r.failure ?? '').toBe(true);
    const coco = createCluster({
      factory: complement(complement(centralMutex())),
      spec: mutexSpec(n),
      seed: 9,
    });
    const r2 = await runWorkload(coco, { rounds: 3 });
    expect(r2.ok, r2.failure ?? '').toBe(true);
  });
});
