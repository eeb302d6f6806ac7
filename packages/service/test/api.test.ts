/**
 * The API over one and three in-process members: sessions, acquire / release / renew, the
 * snapshot, expiry releasing locks and aborting waits, fencing tokens, health and metrics.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, ManualClock, type Members, startMembers } from './members.js';

describe('one member', () => {
  let m: Members;
  const clock = new ManualClock();
  beforeAll(async () => {
    m = await startMembers(1, { clock });
  });
  afterAll(() => m.close());

  it('a session acquires, renews and releases; a second session waits until then', async () => {
    const s = m.services[0]!;
    const a = await call(s, 'POST', '/v1/sessions', { ttlMs: 1000 });
    expect(a.status).toBe(201);
    const b = await call(s, 'POST', '/v1/sessions', { ttlMs: 1000 });
    const got = await call(s, 'POST', '/v1/locks/x/acquire', { session: a.body.id });
    expect(got).toEqual({
      status: 200,
      body: { name: 'x', mode: 'exclusive', token: null, remainingMs: null },
    });
    const shared = await call(s, 'POST', '/v1/locks/y/acquire', { session: a.body.id, mode: 'shared' });
    expect([shared.status, shared.body.error.code]).toEqual([400, 'INVALID_OPTIONS']); // y is not listed shared
    const again = await call(s, 'POST', '/v1/locks/x/acquire', { session: a.body.id });
    expect(again.body.error.code).toBe('LOCK_ALREADY_REQUESTED');
    const busy = await call(s, 'POST', '/v1/locks/x/acquire', { session: b.body.id, ifAvailable: true });
    expect([busy.status, busy.body.error.code]).toEqual([409, 'LOCK_UNAVAILABLE']);
    const timeout = await call(s, 'POST', '/v1/locks/x/acquire', { session: b.body.id, timeoutMs: 0 });
    expect([timeout.status, timeout.body.error.code]).toEqual([409, 'LOCK_TIMEOUT']);
    const waiting = call(s, 'POST', '/v1/locks/x/acquire', { session: b.body.id });
    const snap = await call(s, 'GET', '/v1/locks');
    expect(snap.body.held).toEqual([{ name: 'x', mode: 'exclusive', holder: 0, token: null }]);
    expect((await call(s, 'POST', '/v1/locks/x/renew', { session: a.body.id })).body.name).toBe('x');
    expect((await call(s, 'POST', '/v1/locks/x/release', { session: a.body.id })).body).toEqual({
      name: 'x',
      released: true,
    });
    expect((await waiting).status).toBe(200);
    const notHeld = await call(s, 'POST', '/v1/locks/x/release', { session: a.body.id });
    expect(notHeld.body.error.code).toBe('LOCK_NOT_HELD');
    expect((await call(s, 'DELETE', `/v1/sessions/${b.body.id}`)).status).toBe(204);
    expect((await call(s, 'POST', '/v1/locks/y/acquire', { session: b.body.id })).body.error.code).toBe(
      'SESSION_UNKNOWN',
    );
    await call(s, 'DELETE', `/v1/sessions/${a.body.id}`);
  });

  it('a session not kept alive expires: its lock is released, its wait aborted (SESSION_EXPIRED)', async () => {
    const s = m.services[0]!;
    const a = (await call(s, 'POST', '/v1/sessions', { ttlMs: 1000 })).body.id;
    const b = (await call(s, 'POST', '/v1/sessions', { ttlMs: 5000 })).body.id;
    const c = (await call(s, 'POST', '/v1/sessions', { ttlMs: 1000 })).body.id;
    await call(s, 'POST', '/v1/locks/e/acquire', { session: a });
    expect((await call(s, 'POST', '/v1/locks/f/acquire', { session: b })).status).toBe(200);
    const bWaits = call(s, 'POST', '/v1/locks/e/acquire', { session: b });
    const cWaits = call(s, 'POST', '/v1/locks/f/acquire', { session: c });
    clock.advance(600);
    expect((await call(s, 'POST', `/v1/sessions/${c}/keepalive`)).status).toBe(200);
    clock.advance(600); // a: 1200 > 1000, expired; c kept alive at 600
    expect((await bWaits).body).toMatchObject({ name: 'e' });
    expect((await call(s, 'POST', '/v1/locks/e/renew', { session: a })).body.error.code).toBe(
      'SESSION_EXPIRED',
    );
    expect((await call(s, 'POST', `/v1/sessions/${a}/keepalive`)).status).toBe(410);
    clock.advance(600); // c: expired while waiting for f, which b holds
    const cAnswer = await cWaits;
    expect([cAnswer.status, cAnswer.body.error.code]).toEqual([410, 'SESSION_EXPIRED']);
    expect(s.sessions).toBe(1);
    await call(s, 'DELETE', `/v1/sessions/${b}`);
  });

  it('/healthz, /readyz, /metrics (the locks series and the sessions)', async () => {
    const s = m.services[0]!;
    expect(await call(s, 'GET', '/healthz')).toEqual({ status: 200, body: { status: 'ok', member: 0 } });
    expect((await call(s, 'GET', '/readyz')).status).toBe(200);
    const metrics = (await call(s, 'GET', '/metrics')).body as unknown as string;
    expect(metrics).toContain('critsec_lock_acquisitions_total{member="0",mode="exclusive"}');
    expect(metrics).toMatch(/critsec_service_sessions_expired_total\{member="0"\} 2/);
    expect(metrics).toContain('critsec_service_sessions{member="0"} 0');
  });
});

describe('three members with fencing', () => {
  let m: Members;
  beforeAll(async () => {
    m = await startMembers(3, { fencing: true });
  });
  afterAll(() => m.close());

  it('every acquire returns the fencing token, strictly increasing across holders at different members', async () => {
    const tokens: number[] = [];
    for (let round = 0; round < 2; round++) {
      for (const s of m.services) {
        const id = (await call(s, 'POST', '/v1/sessions', { ttlMs: 10_000 })).body.id;
        const got = await call(s, 'POST', '/v1/locks/fenced/acquire', { session: id });
        expect(got.status).toBe(200);
        expect(got.body.token).toBeTypeOf('number');
        tokens.push(got.body.token!);
        await call(s, 'POST', '/v1/locks/fenced/release', { session: id });
        await call(s, 'DELETE', `/v1/sessions/${id}`);
      }
    }
    expect(tokens.every((t, i) => i === 0 || t > tokens[i - 1]!)).toBe(true);
  });
});
