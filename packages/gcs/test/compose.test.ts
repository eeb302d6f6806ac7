import { complement } from '@critsec/complement';
import {
  AbortError,
  ConfigurationError,
  type CSFactory,
  type CSObject,
  CSObjectBase,
  type CSState,
  globalSpec,
  mutexSpec,
} from '@critsec/core';
import { majority } from '@critsec/coteries';
import { createCluster, runWorkload } from '@critsec/harness';
import { centralMutex, unsafeMutex } from '@critsec/testing';
import { defaultDelays } from '@critsec/testing/cs';
import { SimNetwork } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { type ComposedObject, compose, gcs } from '../src/index.js';

/** A user-written object whose calls finish when the test says so. */
class Gate extends CSObjectBase {
  open: (() => void) | undefined;
  readonly calls: string[];
  constructor(
    id: number,
    state: CSState,
    calls: string[],
    readonly label: string,
  ) {
    super(id, state);
    this.calls = calls;
  }
  #wait(op: string): Promise<void> {
    this.calls.push(`${this.label}.${op}`);
    return new Promise((resolve) => {
      this.open = resolve;
    });
  }
  protected doEntry(): Promise<void> {
    return this.#wait('entry');
  }
  protected doExit(): Promise<void> {
    return this.#wait('exit');
  }
  protected doClose(): void {
    this.calls.push(`${this.label}.close`);
  }
}

const tick = () => new Promise((r) => setImmediate(r));

/** Counts, at every state change of a cluster of composites, #a ≤ #G ≤ #b. */
function watchSandwich(objects: readonly CSObject[]): { breaches: string[]; checks: number } {
  const out = { breaches: [] as string[], checks: 0 };
  const composites = objects as readonly ComposedObject[];
  const count = (pick: (o: ComposedObject) => CSObject) =>
    composites.filter((o) => pick(o).state === 'InCS').length;
  const check = () => {
    out.checks++;
    const a = count((o) => o.a);
    const g = count((o) => o);
    const b = count((o) => o.b);
    if (!(a <= g && g <= b)) out.breaches.push(`#a = ${a}, #G = ${g}, #b = ${b}`);
  };
  for (const o of composites) for (const x of [o, o.a, o.b]) x.on('statechange', check);
  return out;
}

describe('compose(a, b) — Algorithm 3 in general form', () => {
  it('exit = a.exit then b.exit, entry = b.entry then a.entry; the state flips after the first call', async () => {
    const calls: string[] = [];
    const a = new Gate(0, 'InCS', calls, 'a');
    const b = new Gate(0, 'InCS', calls, 'b');
    const g = compose(a, b);
    const changes: string[] = [];
    g.on('statechange', (s) => changes.push(`${s} after ${calls.join(',')}`));
    const exit = g.exit();
    expect(calls).toEqual(['a.exit']);
    expect(g.state).toBe('InCS');
    a.open!();
    await tick();
    expect(g.state).toBe('OutCS'); // flipped right after a.exit …
    expect(g.pending).toBe('exit'); // … while b.exit is still running
    expect(calls).toEqual(['a.exit', 'b.exit']);
    b.open!();
    await exit;
    const entry = g.entry();
    expect(calls.at(-1)).toBe('b.entry');
    b.open!();
    await tick();
    expect(g.state).toBe('InCS');
    a.open!();
    await entry;
    expect(changes).toEqual(['OutCS after a.exit', 'InCS after a.exit,b.exit,b.entry']);
    expect(calls).toEqual(['a.exit', 'b.exit', 'b.entry', 'a.entry']);
  });

  it('an aborted first call leaves the composite unchanged', async () => {
    const cluster = createCluster({
      factory: centralMutex(),
      spec: mutexSpec(2),
      initial: ['InCS', 'OutCS'],
    });
    const calls: string[] = [];
    const g = compose(new Gate(1, 'OutCS', calls, 'a'), cluster.objects[1]!);
    const ac = new AbortController();
    const entry = g.entry({ signal: ac.signal }); // b = the mutex, held by P0
    await cluster.net.run();
    ac.abort();
    await expect(entry).rejects.toBeInstanceOf(AbortError);
    expect(g.state).toBe('OutCS');
    expect(g.pending).toBeNull();
    expect(calls).toEqual([]);
  });

  it('refuses inner objects in another state, of another process, or taking a request', () => {
    const calls: string[] = [];
    expect(() => compose(new Gate(0, 'InCS', calls, 'a'), new Gate(0, 'OutCS', calls, 'b'))).toThrow(
      /Lemma 5/,
    );
    expect(() => compose(new Gate(0, 'InCS', calls, 'a'), new Gate(1, 'InCS', calls, 'b'))).toThrow(
      /different processes/,
    );
    class Units extends CSObjectBase<number> {
      constructor() {
        super(0, 'OutCS', { takesRequest: true });
      }
      protected async doEntry(): Promise<void> {}
      protected async doExit(): Promise<void> {}
      protected doClose(): void {}
    }
    expect(() => compose(new Units() as unknown as CSObject, new Gate(0, 'OutCS', calls, 'b'))).toThrow(
      /takes a request/,
    );
    expect(() => compose(centralMutex(), new Gate(0, 'OutCS', calls, 'b') as never)).toThrow(
      ConfigurationError,
    );
    expect(() => compose(centralMutex(), centralMutex(), { channels: ['x', 'x'] })).toThrow(/two different/);
  });

  it('factories: inner objects on channels a/b (or named), the same initial configuration; close closes both', async () => {
    const seen: { role: string; path: string; initial: readonly CSState[] }[] = [];
    const spy =
      (role: string): CSFactory =>
      (ctx) => {
        seen.push({ role, path: ctx.endpoint.path, initial: ctx.initial });
        return centralMutex()(ctx);
      };
    const net = new SimNetwork({ n: 2 });
    const initial: CSState[] = ['OutCS', 'InCS'];
    const g = compose(spy('a'), spy('b'))({ id: 1, n: 2, endpoint: net.endpoint(1), initial });
    const h = compose(spy('lo'), spy('hi'), { channels: ['lmin', 'kmex'] })({
      id: 0,
      n: 2,
      endpoint: net.endpoint(0),
      initial,
    });
    expect(seen.map((s) => `${s.role}@${s.path}`)).toEqual(['a@a', 'b@b', 'lo@lmin', 'hi@kmex']);
    expect(seen.every((s) => s.initial === initial)).toBe(true);
    expect(g.state).toBe('InCS');
    await g.close();
    await expect((g as ComposedObject).a.entry()).rejects.toMatchObject({ code: 'CSMIC' });
    expect((h as ComposedObject).inspect).toBeUndefined(); // centralMutex has no inspect()
  });

  it('keeps #a ≤ #G ≤ #b for user-written objects: Co-(central) ∘ unrestricted is the (n−1, n)-CS', async () => {
    const n = 4;
    const factory = compose(complement(centralMutex()), unsafeMutex());
    for (let seed = 1; seed <= 50; seed++) {
      const cluster = createCluster({
        factory,
        spec: globalSpec(n - 1, n, n),
        initial: ['InCS', 'InCS', 'InCS', 'InCS'],
        seed,
        delay: defaultDelays[seed % 3],
      });
      const sandwich = watchSandwich(cluster.objects);
      const r = await runWorkload(cluster, { rounds: 2 });
      expect(r.ok, r.failure ?? '').toBe(true);
      expect(sandwich.breaches).toEqual([]);
      expect(sandwich.checks).toBeGreaterThan(0);
    }
  });
});

describe('(l,k)-GCS keeps #lmin ≤ #G ≤ #kmex at every state change (Lemma 8)', () => {
  it('majority(5), l = 1, k = 3, 100 seeds per delay model', async () => {
    for (const delay of defaultDelays) {
      for (let seed = 1; seed <= 100; seed++) {
        const cluster = createCluster({
          factory: gcs({ l: 1, k: 3, coterie: majority(5) }),
          spec: globalSpec(1, 3, 5),
          seed,
          delay,
        });
        const sandwich = watchSandwich(cluster.objects);
        const r = await runWorkload(cluster, { rounds: 2 });
        expect(r.ok, r.failure ?? '').toBe(true);
        expect(sandwich.breaches).toEqual([]);
      }
    }
  });
});
