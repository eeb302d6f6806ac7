/**
 * Bad input never crashes the service: fast-check sends random methods, paths, names, session ids,
 * bodies (malformed JSON, wrong types, negative ttls, over-long names, unknown keys) and
 * Authorization headers; every answer is a 2xx or a 4xx whose body is the typed error
 * `{ error: { code, message } }`, never a 5xx, and the service keeps answering.
 */
import fc from 'fast-check';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorResponse } from '../src/schemas.js';
import { call, type Members, startMembers } from './members.js';

let m: Members;
beforeAll(async () => {
  m = await startMembers(1, { token: 'sesame' });
});
afterAll(() => m.close());

const AUTH = { authorization: 'Bearer sesame' };
const name = fc.oneof(
  fc.constantFrom('x', 'y', 'a%2Fb', '%00', '%E2%9C%93', 'x'.repeat(256), 'x'.repeat(257), ''),
  fc.string({ maxLength: 300 }).map(encodeURIComponent),
);
const junk = fc.oneof(
  fc.constantFrom('', '{', 'null', '[]', '"x"', '{"ttlMs":', '\u0000', '{"session":1}'),
  fc.string({ maxLength: 64 }),
  fc.json({ maxDepth: 3 }),
);
/** A body: junk, or an object close to a valid one with fields of any value. */
const body = (session: string) =>
  fc.oneof(
    junk,
    fc
      .record(
        {
          session: fc.oneof(fc.constant(session), fc.string({ maxLength: 200 }), fc.integer()),
          ttlMs: fc.oneof(fc.integer({ min: -10_000, max: 10_000_000 }), fc.double(), fc.string()),
          mode: fc.oneof(fc.constantFrom('exclusive', 'shared', 'both'), fc.integer()),
          ifAvailable: fc.oneof(fc.boolean(), fc.string()),
          timeoutMs: fc.oneof(fc.integer({ min: -5, max: 50 }), fc.double(), fc.constant(null)),
          extra: fc.anything(),
        },
        { requiredKeys: [] },
      )
      .map((o) => JSON.stringify(o)),
  );
const request = (session: string) =>
  fc.record({
    method: fc.constantFrom('GET', 'POST', 'DELETE', 'PUT'),
    path: fc.oneof(
      fc.constant('/v1/sessions'),
      fc.constantFrom(session, 'nope', '').map((id) => `/v1/sessions/${id}/keepalive`),
      fc.constantFrom(session, 'nope').map((id) => `/v1/sessions/${id}`),
      fc
        .tuple(name, fc.constantFrom('acquire', 'release', 'renew', 'steal'))
        .map(([n, op]) => `/v1/locks/${n}/${op}`),
      fc.constantFrom('/v1/locks', '/healthz', '/readyz', '/metrics', '/openapi.json', '/v2', '/'),
    ),
    body: fc.option(body(session), { nil: undefined }),
    auth: fc.oneof(
      fc.constant(AUTH),
      fc.constant({}),
      fc
        .constantFrom('Bearer nope', 'Basic sesame', 'Bearer', 'sesame', '')
        .map((a) => ({ authorization: a })),
    ),
  });

describe('fuzzing the endpoints', () => {
  it('every answer is 2xx, or 4xx with a typed error body; never a crash', async () => {
    const s = m.services[0]!;
    const codes = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(
        fc
          .integer({ min: 100, max: 100_000 })
          .chain((ttl) =>
            fc.tuple(fc.constant(ttl), fc.array(request('SESSION'), { minLength: 1, maxLength: 4 })),
          ),
        async ([ttlMs, requests]) => {
          const session = (await call(s, 'POST', '/v1/sessions', { ttlMs }, AUTH)).body.id;
          for (const r of requests) {
            const path = r.path.replace('SESSION', session);
            const b = r.body?.replace('SESSION', session);
            const res = await call(s, r.method, path, r.method === 'GET' ? undefined : b, r.auth);
            expect(res.status).toBeGreaterThanOrEqual(200);
            expect(res.status).toBeLessThan(500);
            if (res.status >= 400) {
              expect(v.is(ErrorResponse, res.body), JSON.stringify(res.body)).toBe(true);
              codes.set(res.body.error.code, (codes.get(res.body.error.code) ?? 0) + 1);
            }
          }
          await call(s, 'DELETE', `/v1/sessions/${session}`, undefined, AUTH);
        },
      ),
      { numRuns: 300, seed: 30 },
    );
    expect((await call(s, 'GET', '/healthz')).status).toBe(200);
    expect(s.sessions).toBe(0);
    // the run reached the typed errors the issue names
    for (const code of ['BAD_REQUEST', 'INVALID_NAME', 'SESSION_UNKNOWN', 'UNAUTHENTICATED', 'NOT_FOUND'])
      expect(codes.get(code) ?? 0, code).toBeGreaterThan(0);
  });
});
