/**
 * The client against three real lock services (members over TCP on loopback, fencing tokens):
 * exclusion across clients of different members, ifAvailable, abort, timeout, a lost session,
 * close, and the typed errors.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { noProgressMs, waitForProgress } from '@critsec/testing';
import {
  ClientClosedError,
  ConnectionError,
  createLockClient,
  type Lock,
  type LockClient,
  LockError,
  LockRequestError,
  SessionError,
} from '../src/index.js';
import { type Members, settled, startMembers, until } from './members.js';

let m: Members;
const clients: LockClient[] = [];
/** A client of member `i` (closed after the file); a session that never expires by itself. */
function client(i: number, o: { sessionTtlMs?: number; fetch?: (r: Request) => Promise<Response> } = {}) {
  const c = createLockClient({
    baseUrl: m.urls[i]!,
    callTimeoutMs: noProgressMs(),
    sessionTtlMs: 60_000,
    ...o,
  });
  clients.push(c);
  return c;
}
/** A callback that holds the lock until `release()`; `held` resolves with the lock once granted. */
function holder() {
  let release = () => {};
  let granted: (lock: Lock) => void = () => {};
  const held = new Promise<Lock>((r) => (granted = r));
  const done = new Promise<void>((r) => (release = r));
  const callback = (lock: Lock) => {
    granted(lock);
    return done;
  };
  return { held, release, callback };
}
const pendingOn = async (c: LockClient, name: string) =>
  (await c.query()).pending.some((l) => l.name === name);

beforeAll(async () => {
  m = await startMembers(3);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await m.close();
});

describe('createLockClient over @critsec/service', () => {
  it('excludes across clients of two members: 2 × 10 concurrent read-modify-writes, the count exact, tokens increasing', async () => {
    const [a, b] = [client(0), client(1)];
    let counter = 0;
    const tokens: (number | undefined)[] = [];
    // each client's 10 requests at once: the client queues its own (one session, one request per name)
    const rounds = (c: LockClient) =>
      Promise.all(
        Array.from({ length: 10 }, () =>
          c.request('counter', async (lock) => {
            const v = counter;
            tokens.push(lock.token);
            await new Promise((r) => setTimeout(r, 1));
            counter = v + 1;
          }),
        ),
      );
    const done = await settled(Promise.all([rounds(a), rounds(b)]), 'the 20 rounds');
    expect(done.ok).toBe(true);
    expect(counter).toBe(20);
    expect(tokens.every((t, i) => typeof t === 'number' && (i === 0 || t > tokens[i - 1]!))).toBe(true);
  });

  it('ifAvailable: null while a client holds the name (another, or itself); the lock once it is free', async () => {
    const [a, b] = [client(0), client(1)];
    const h = holder();
    const held = a.request('busy', h.callback);
    await h.held;
    expect(await b.request('busy', { ifAvailable: true }, (lock) => lock?.name ?? null)).toBeNull();
    expect(await a.request('busy', { ifAvailable: true }, (lock) => lock?.name ?? null)).toBeNull(); // a holds it
    h.release();
    await held;
    expect(await b.request('busy', { ifAvailable: true }, (lock) => lock?.name ?? null)).toBe('busy');
  });

  it('abort of a waiting request rejects with its reason and leaves nothing held or pending', async () => {
    const [a, b] = [client(0), client(1)];
    const h = holder();
    const held = a.request('w', h.callback);
    await h.held;
    const ctl = new AbortController();
    const waiting = settled(
      b.request('w', { signal: ctl.signal }, () => 'granted'),
      'the aborted request',
    );
    await until(() => pendingOn(a, 'w'), "b's request pending");
    ctl.abort();
    const out = await waiting;
    expect(out.ok === false && (out.error as Error).name).toBe('AbortError');
    h.release();
    await held;
    await until(async () => {
      const s = await a.query();
      return ![...s.held, ...s.pending].some((l) => l.name === 'w');
    }, "'w' free");
    expect(await client(2).request('w', { ifAvailable: true }, (lock) => lock !== null)).toBe(true);
  });

  it('timeout: LockError LOCK_TIMEOUT (409) while another client holds the name', async () => {
    const [a, b] = [client(0), client(1)];
    const h = holder();
    const held = a.request('t', h.callback);
    await h.held;
    const out = await settled(
      b.request('t', { timeout: 20 }, () => 'granted'),
      'the request with a timeout',
    );
    expect(out.ok).toBe(false);
    const err = (out as { error: unknown }).error;
    expect(err).toBeInstanceOf(LockError);
    expect(err).toMatchObject({ code: 'LOCK_TIMEOUT', status: 409 });
    h.release();
    await held;
  });

  it('a client that stops renewing loses its session: its lock freed for another, its signal aborted, the next call told', async () => {
    let stalled = false;
    let renewed = 0; // keepalives answered 200
    const stall = async (r: Request) => {
      if (!r.url.endsWith('/keepalive')) return fetch(r);
      if (stalled)
        return new Promise<Response>((_, reject) =>
          r.signal.addEventListener('abort', () => reject(r.signal.reason)),
        );
      const answer = await fetch(r);
      if (answer.status === 200) renewed++;
      return answer;
    };
    const c = client(2, { sessionTtlMs: 2_000, fetch: stall });
    const other = client(0);
    const h = holder();
    const cHolds = settled(c.request('z', h.callback), "c's request");
    const lock = await h.held;
    await waitForProgress(() => renewed > 0, { what: 'a keepalive answered' });
    stalled = true;
    const otherGets = settled(
      other.request('z', () => 'other'),
      "the other client's request",
    );
    m.clocks[2]!.advance(2_000); // member 2's service expires c's session: 'z' released
    expect(await otherGets).toEqual({ ok: true, value: 'other' });
    await settled(new Promise((r) => lock.signal.addEventListener('abort', r)), "c's lock signal");
    expect(lock.signal.reason).toBeInstanceOf(SessionError);
    expect(lock.signal.reason).toMatchObject({ code: 'SESSION_EXPIRED' });
    h.release();
    const out = await cHolds;
    expect(out.ok === false && out.error).toBe(lock.signal.reason);
    stalled = false;
    await expect(c.request('z2', () => 1)).rejects.toBeInstanceOf(SessionError); // the next call is told
    expect(await c.request('z2', (l) => l.name)).toBe('z2'); // then a new session
  });

  it('close() ends the session: the held lock is released for another client, its request rejects', async () => {
    const [a, b] = [client(0), client(1)];
    const h = holder();
    const aHolds = settled(a.request('c', h.callback), "a's request");
    const lock = await h.held;
    const bGets = settled(
      b.request('c', () => 'b'),
      "b's request",
    );
    await a.close();
    expect(await bGets).toEqual({ ok: true, value: 'b' });
    expect(lock.signal.reason).toBeInstanceOf(ClientClosedError);
    h.release();
    const out = await aHolds;
    expect(out.ok === false && out.error).toBeInstanceOf(ClientClosedError);
    await expect(a.request('c', () => 1)).rejects.toMatchObject({ code: 'CLIENT_CLOSED', status: 0 });
  });

  it('typed errors: the service refusing (400), options refused before sending (0), no service (UNREACHABLE)', async () => {
    const a = client(0);
    await expect(a.request('x'.repeat(300), () => 1)).rejects.toMatchObject({
      code: 'INVALID_NAME',
      status: 400,
    });
    await expect(a.request('s', { mode: 'shared' }, () => 1)).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
      status: 400,
    });
    const early = a.request('s', { ifAvailable: true, timeout: 5 }, () => 1);
    await expect(early).rejects.toBeInstanceOf(LockRequestError);
    await expect(early).rejects.toMatchObject({ code: 'INVALID_OPTIONS', status: 0 });
    const nobody = createLockClient({ baseUrl: 'http://127.0.0.1:1', callTimeoutMs: noProgressMs() });
    await expect(nobody.query()).rejects.toBeInstanceOf(ConnectionError);
    await expect(nobody.request('x', () => 1)).rejects.toMatchObject({ code: 'UNREACHABLE', status: 0 });
    const opens: string[] = [];
    const counting = createLockClient({
      baseUrl: 'http://127.0.0.1:1',
      callTimeoutMs: noProgressMs(),
      fetch: (r) => {
        opens.push(r.url);
        return fetch(r);
      },
    });
    for (let i = 0; i < 2; i++)
      await expect(counting.request('x', () => 1)).rejects.toBeInstanceOf(ConnectionError);
    expect(opens).toEqual(['http://127.0.0.1:1/v1/sessions', 'http://127.0.0.1:1/v1/sessions']); // tried again
    await counting.close();
    await nobody.close();
  });
});

describe('the README example (examples/quickstart.ts)', () => {
  it('is the README block, and prints what its comment says against a service', async () => {
    const file = readFileSync(new URL('../examples/quickstart.ts', import.meta.url), 'utf8');
    const code = file.slice(file.indexOf('\n') + 1).trimEnd();
    expect(readFileSync(new URL('../README.md', import.meta.url), 'utf8')).toContain(code);
    // the same program, at member 0's service and importing the source
    const dir = mkdtempSync(join(tmpdir(), 'critsec-client-'));
    const copy = join(dir, 'quickstart.ts');
    const src = fileURLToPath(new URL('../src/index.ts', import.meta.url));
    writeFileSync(
      copy,
      code.replace("'@critsec/client'", JSON.stringify(src)).replace('http://127.0.0.1:7070', m.urls[0]!),
    );
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      await settled(import(/* @vite-ignore */ pathToFileURL(copy).href), 'the example');
      expect(log.mock.calls).toEqual([[7, 3, true]]);
    } finally {
      log.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the README Python example (examples/client.py)', () => {
  it('is the README block, and runs against a service with the standard library only', async () => {
    const file = readFileSync(new URL('../examples/client.py', import.meta.url), 'utf8');
    expect(readFileSync(new URL('../README.md', import.meta.url), 'utf8')).toContain(file);
    const run = promisify(execFile)('python3', [
      fileURLToPath(new URL('../examples/client.py', import.meta.url)),
      m.urls[1]!,
    ]);
    const out = await settled(run, 'the Python client');
    expect(out.ok && out.value.stdout).toMatch(/^held stock token \d+\nfree\n0 held\n$/);
  });
});
