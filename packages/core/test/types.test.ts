import { describe, expect, expectTypeOf, it } from 'vitest';
import { CSObjectBase, type EntryArgs, lease, withCS } from '../src/index.js';

/** h-out-of-k shaped object: entry takes the number of units. */
class Units extends CSObjectBase<number> {
  held = 0;
  constructor() {
    super(0, 'OutCS', { takesRequest: true });
  }
  protected async doEntry(h: number): Promise<void> {
    this.held = h;
  }
  protected async doExit(): Promise<void> {
    this.held = 0;
  }
  protected doClose(): void {}
}

describe('request parameter typing', () => {
  it('EntryArgs drops the request for void objects', () => {
    expectTypeOf<EntryArgs<void>>().toEqualTypeOf<[opts?: { readonly signal?: AbortSignal | undefined }]>();
    expectTypeOf<EntryArgs<number>>().toEqualTypeOf<
      [req: number, opts?: { readonly signal?: AbortSignal | undefined }]
    >();
  });

  it('withCS and lease pass the request through', async () => {
    const u = new Units();
    const seen = await withCS(u, () => u.held, 3);
    expect(seen).toBe(3);
    const l = await lease(u, 2, {});
    expect(u.held).toBe(2);
    await l.release();
    // @ts-expect-error a request-taking object needs its request
    await expect(withCS(u, () => 0)).resolves.toBe(0);
  });
});
