/**
 * The server as a client meets it over a socket: a Unix socket, the token required beyond
 * loopback, a long-poll withdrawn when its client disconnects, the graceful close answering
 * long-polls 503 and releasing every grant, and the checked-in OpenAPI document.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationError } from '@critsec/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SESSION_TTL_MS, openApiDocument, parseListen, startLockService } from '../src/index.js';
import { call, type Members, startMembers, until } from './members.js';

const tmp = mkdtempSync(join(tmpdir(), 'critsec-service-'));
let m: Members;
beforeAll(async () => {
  m = await startMembers(1);
});
afterAll(async () => {
  await m.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** One HTTP request over a socket; `onRequest` gets the request (to destroy it). */
function http(
  target: { socketPath: string } | { host: string; port: number },
  method: string,
  path: string,
  body?: unknown,
  onRequest: (r: ReturnType<typeof request>) => void = () => {},
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { ...target, agent: false, method, path, headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text || 'null') }));
      },
    );
    req.on('error', reject);
    onRequest(req);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

describe('listening', () => {
  it('on a Unix socket (a stale one from a killed service is replaced)', async () => {
    const socketPath = join(tmp, 'locks.sock');
    for (let i = 0; i < 2; i++) {
      const s = await startLockService({ manager: m.managers[0]!, listen: socketPath });
      expect(await http({ socketPath }, 'GET', '/healthz')).toEqual({
        status: 200,
        body: { status: 'ok', member: 0 },
      });
      await s.close();
    }
  });

  it('beyond loopback only with a bearer token; addresses parsed', async () => {
    await expect(startLockService({ manager: m.managers[0]!, listen: '0.0.0.0:0' })).rejects.toThrow(
      ConfigurationError,
    );
    expect(parseListen('7070')).toEqual({ kind: 'tcp', host: '127.0.0.1', port: 7070 });
    expect(parseListen('[::1]:7070')).toEqual({ kind: 'tcp', host: '::1', port: 7070 });
    expect(parseListen('./x.sock')).toEqual({ kind: 'unix', path: './x.sock' });
    expect(() => parseListen('host:99999')).toThrow(ConfigurationError);
  });
});

describe('long-polls', () => {
  it('a client that disconnects while it waits withdraws its request: it never holds the lock', async () => {
    const s = m.services[0]!;
    const target = { host: '127.0.0.1', port: (s.address as { port: number }).port };
    const a = (await call(s, 'POST', '/v1/sessions', { ttlMs: MAX_SESSION_TTL_MS })).body.id;
    const b = (await call(s, 'POST', '/v1/sessions', { ttlMs: MAX_SESSION_TTL_MS })).body.id;
    await call(s, 'POST', '/v1/locks/d/acquire', { session: a });
    let req: ReturnType<typeof request> | undefined;
    const gone = http(target, 'POST', '/v1/locks/d/acquire', { session: b }, (r) => (req = r)).catch(
      () => 'gone',
    );
    await until(async () => (await m.managers[0]!.query()).pending.length === 1, 'b waits');
    req!.destroy();
    expect(await gone).toBe('gone');
    await until(async () => (await m.managers[0]!.query()).pending.length === 0, 'b withdrawn');
    await call(s, 'POST', '/v1/locks/d/release', { session: a });
    expect(await m.managers[0]!.query()).toEqual({ held: [], pending: [], unreachable: [] });
    expect((await call(s, 'POST', '/v1/locks/d/acquire', { session: b })).status).toBe(200);
    await call(s, 'DELETE', `/v1/sessions/${a}`);
    await call(s, 'DELETE', `/v1/sessions/${b}`);
  });

  it('close(): long-polls answered 503 SHUTTING_DOWN, every grant released, nothing accepted after', async () => {
    const s = await startLockService({ manager: m.managers[0]!, listen: '127.0.0.1:0' });
    const target = { host: '127.0.0.1', port: (s.address as { port: number }).port };
    const a = (
      (await http(target, 'POST', '/v1/sessions', { ttlMs: MAX_SESSION_TTL_MS })).body as { id: string }
    ).id;
    const b = (
      (await http(target, 'POST', '/v1/sessions', { ttlMs: MAX_SESSION_TTL_MS })).body as { id: string }
    ).id;
    await http(target, 'POST', '/v1/locks/c/acquire', { session: a });
    const waiting = http(target, 'POST', '/v1/locks/c/acquire', { session: b });
    await until(async () => (await m.managers[0]!.query()).pending.length === 1, 'b waits');
    await s.close();
    expect(await waiting).toEqual({
      status: 503,
      body: { error: { code: 'SHUTTING_DOWN', message: 'the service is shutting down' } },
    });
    expect(await m.managers[0]!.query()).toEqual({ held: [], pending: [], unreachable: [] });
    await expect(http(target, 'GET', '/healthz')).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('the OpenAPI document', () => {
  it('is generated from the schemas, served, and checked in as openapi.json (`npm run openapi` writes it)', async () => {
    const served = (await call(m.services[0]!, 'GET', '/openapi.json')).body;
    const file = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'));
    expect(served).toEqual(openApiDocument());
    expect(file, 'openapi.json is stale: run `npm run openapi` in packages/service').toEqual(
      openApiDocument(),
    );
  });
});
