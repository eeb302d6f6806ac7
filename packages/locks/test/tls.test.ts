import { noProgressMs, waitForProgress } from '@critsec/testing';
import { type TcpTransport, tcpTransport } from '@critsec/transport-tcp';
import { createDevCertificates, freeLoopbackPorts } from '@critsec/transport-tcp/setup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLockManager, type LockManager, LockTimeoutError } from '../src/index.js';

const n = 3;
let transports: TcpTransport[] = [];
let managers: LockManager[] = [];

beforeAll(async () => {
  const certs = await createDevCertificates(n);
  const ports = await freeLoopbackPorts(n);
  const peers = ports.map((port, id) => ({ id, host: '127.0.0.1', port }));
  transports = peers.map((p) =>
    tcpTransport({
      self: p.id,
      peers,
      tls: { ca: certs.ca, cert: certs.processes[p.id]!.cert, key: certs.processes[p.id]!.key },
      logger: { warn: () => {} },
      reconnect: { initialDelayMs: 5, maxDelayMs: 100 },
      lingerMs: 0,
    }),
  );
  await Promise.all(transports.map((t) => t.start()));
  await Promise.all(transports.map((t) => t.ready({ timeoutMs: noProgressMs() })));
  managers = transports.map((t, id) =>
    createLockManager({ endpoint: t.endpoint, id, n, shared: ['db'], k: 2 }),
  );
});

afterAll(async () => {
  await Promise.all(managers.map((m) => m.close()));
  await Promise.all(transports.map((t) => t.close()));
});

/** Waits for every promise; fails only after no promise settled for `noProgressMs()`. */
async function all<T>(promises: Promise<T>[], what: string): Promise<T[]> {
  let settledCount = 0;
  for (const p of promises)
    p.then(
      () => settledCount++,
      () => settledCount++,
    );
  await waitForProgress(() => settledCount === promises.length, { what, measure: () => settledCount });
  return Promise.all(promises);
}

describe('@critsec/locks over mutual TLS (3 members in one process)', () => {
  it('exclusion per name (read-modify-write counters end exact), independence across names, shared holders together', async () => {
    const counters: Record<string, number> = { a: 0, b: 0 };
    let inA = 0;
    let overlapAB = 0;
    let maxReaders = 0;
    let readers = 0;
    const work: Promise<unknown>[] = [];
    for (const [id, m] of managers.entries()) {
      for (const name of ['a', 'b']) {
        work.push(
          (async () => {
            for (let r = 0; r < 20; r++) {
              await m.request(name, async () => {
                if (name === 'a') inA++;
                else if (inA > 0) overlapAB++;
                const v = counters[name]!;
                await new Promise((res) => setTimeout(res, 1));
                counters[name] = v + 1;
                if (name === 'a') inA--;
              });
            }
          })(),
        );
      }
      work.push(
        m.request('db', { mode: 'shared' }, async () => {
          readers++;
          maxReaders = Math.max(maxReaders, readers);
          await waitForProgress(() => maxReaders >= 2, { what: `P${id}: a second reader` });
          readers--;
        }),
      );
    }
    await all(work, 'the lock loops');
    expect(counters).toEqual({ a: 60, b: 60 });
    expect(maxReaders).toBeGreaterThanOrEqual(2);
    expect(overlapAB).toBeGreaterThan(0); // 'b' was held while 'a' was: the names do not block each other
  });

  it('ifAvailable is null while held, the lock when free; a timeout and an abort leave nothing held anywhere', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let holding = false;
    const holder = managers[0]!.request('x', async () => {
      holding = true;
      await held;
    });
    await waitForProgress(() => holding, { what: 'P0 holds x' });
    const busy = await managers[1]!.request('x', { ifAvailable: true }, (l) => l);
    expect(busy).toBeNull();
    const timedOut = managers[1]!.request('x', { timeout: 50 }, () => 'no').catch((e: unknown) => e);
    const ac = new AbortController();
    const aborted = managers[2]!.request('x', { signal: ac.signal }, () => 'no').catch((e: unknown) => e);
    expect(await all([timedOut], 'the timeout')).toEqual([expect.any(LockTimeoutError)]);
    ac.abort();
    expect(((await all([aborted], 'the abort'))[0] as Error).name).toBe('AbortError');
    const snapshot = await managers[2]!.query();
    expect(snapshot).toEqual({
      held: [{ name: 'x', mode: 'exclusive', holder: 0, token: undefined }],
      pending: [],
      unreachable: [],
    });
    release();
    await all([holder], 'the release');
    const free = await managers[1]!.request('x', { ifAvailable: true }, (l) => l?.name ?? null);
    expect(free).toBe('x');
    expect(await managers[0]!.query()).toEqual({ held: [], pending: [], unreachable: [] });
    const allIdle = () => {
      for (const m of managers) m.reclaimIdle();
      return managers.every((m) => m.live === 0);
    };
    await waitForProgress(allIdle, {
      what: 'every instance idle (the last RELEASE delivered)',
    });
  });
});
