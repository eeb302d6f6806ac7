/**
 * The HTTP/JSON API (Hono): sessions, locks, `/healthz`, `/readyz`, `/metrics` and
 * `/openapi.json`. Every request body is checked with the valibot schemas of `schemas.ts`; every
 * answer other than 2xx is `{ error: { code, message } }` (`errors.ts`), never a crash.
 */
import { type LockManager, MAX_LOCK_NAME_LENGTH } from '@critsec/locks';
import { type Context, Hono } from 'hono';
import { bearerAuth } from 'hono/bearer-auth';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Registry } from 'prom-client';
import * as v from 'valibot';
import { asServiceError, ServiceError } from './errors.js';
import { LockCalls } from './lock-calls.js';
import { openApiDocument } from './openapi.js';
import { AcquireBody, CreateSessionBody, HolderBody, LockName } from './schemas.js';
import type { Sessions } from './sessions.js';

/** Whether the member can grant now, and why not (see `LockServiceOptions.readiness`). */
export interface Readiness {
  /** True when this member is connected to a quorum and able to grant. */
  readonly ready: boolean;
  /** Why it is not ready (the members it misses), or what it is connected to. */
  readonly detail: string;
}

/** The largest request body, bytes. */
export const MAX_BODY_BYTES = 16 * 1024;

/** What the app is built over. */
export interface AppParts {
  readonly manager: LockManager;
  readonly sessions: Sessions;
  readonly registry: Registry;
  readonly readiness: () => Readiness;
  readonly token: string | undefined;
  /** True once the service is shutting down: `/v1/*` answers SHUTTING_DOWN, `/readyz` 503. */
  readonly closing: () => boolean;
}

function fail(c: Context, e: ServiceError) {
  return c.json({ error: { code: e.code, message: e.message } }, e.status as ContentfulStatusCode);
}

/** The body parsed as JSON and checked against `schema`. @throws ServiceError `BAD_REQUEST`. */
async function body<S extends v.GenericSchema>(c: Context, schema: S): Promise<v.InferOutput<S>> {
  let raw: unknown;
  try {
    raw = JSON.parse(await c.req.text());
  } catch (err) {
    if (err instanceof ServiceError) throw err;
    throw new ServiceError('BAD_REQUEST', `the body is not JSON: ${(err as Error).message}`);
  }
  const r = v.safeParse(schema, raw);
  if (!r.success) {
    const why = r.issues
      .slice(0, 3)
      .map((i) => `${v.getDotPath(i) ?? 'body'}: ${i.message}`)
      .join('; ');
    throw new ServiceError('BAD_REQUEST', `invalid body: ${why}`);
  }
  return r.output;
}

/** The `:name` path parameter. @throws ServiceError `INVALID_NAME`. */
function lockName(c: Context): string {
  const name = c.req.param('name') ?? '';
  if (!v.is(LockName, name) || name.includes('/'))
    throw new ServiceError(
      'INVALID_NAME',
      `a lock name is 1 to ${MAX_LOCK_NAME_LENGTH} characters without '/', got ${JSON.stringify(name.slice(0, 64))}`,
    );
  return name;
}

const authMessage = (code: 'UNAUTHENTICATED' | 'BAD_REQUEST', message: string) => ({
  message: { error: { code, message } },
});

/** The Hono app of one service. */
export function createApp(p: AppParts): Hono {
  const app = new Hono();
  const member = p.manager.id;
  // the bearer check answers through an HTTPException carrying its typed body (`authMessage`)
  app.onError((err, c) => (err instanceof HTTPException ? err.getResponse() : fail(c, asServiceError(err))));
  app.notFound((c) => fail(c, new ServiceError('NOT_FOUND', `no route ${c.req.method} ${c.req.path}`)));
  app.use(
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) =>
        fail(c, new ServiceError('PAYLOAD_TOO_LARGE', `a body is at most ${MAX_BODY_BYTES} bytes`)),
    }),
  );
  if (p.token !== undefined) {
    const auth = bearerAuth({
      token: p.token,
      noAuthenticationHeader: authMessage(
        'UNAUTHENTICATED',
        'an Authorization: Bearer <token> header is required',
      ),
      invalidAuthenticationHeader: authMessage(
        'BAD_REQUEST',
        'the Authorization header is not Bearer <token>',
      ),
      invalidToken: authMessage('UNAUTHENTICATED', 'the bearer token is not this service’s'),
    });
    app.use('/v1/*', auth);
    app.use('/metrics', auth);
  }
  app.use('/v1/*', async (c, next) => {
    if (p.closing()) return fail(c, new ServiceError('SHUTTING_DOWN', 'the service is shutting down'));
    await next();
  });

  app.get('/healthz', (c) => c.json({ status: 'ok', member }));
  app.get('/readyz', (c) => {
    if (p.closing()) return c.json({ status: 'shutting-down', member }, 503);
    const r = p.readiness();
    return c.json({ status: r.ready ? 'ready' : 'not-ready', member, detail: r.detail }, r.ready ? 200 : 503);
  });
  app.get('/metrics', async (c) =>
    c.body(await p.registry.metrics(), 200, { 'content-type': p.registry.contentType }),
  );
  app.get('/openapi.json', (c) => c.json(openApiDocument()));

  sessionRoutes(app, p.sessions);
  lockRoutes(app, new LockCalls(p.manager, p.sessions));
  return app;
}

/** `/v1/sessions`: create, keep alive, end. */
function sessionRoutes(app: Hono, sessions: Sessions): void {
  app.post('/v1/sessions', async (c) => {
    const { ttlMs } = await body(c, CreateSessionBody);
    const s = sessions.create(ttlMs);
    return c.json({ id: s.id, ttlMs: s.ttlMs }, 201);
  });
  app.post('/v1/sessions/:id/keepalive', (c) => {
    const s = sessions.keepalive(c.req.param('id'));
    return c.json({ id: s.id, ttlMs: s.ttlMs });
  });
  app.delete('/v1/sessions/:id', async (c) => {
    const id = c.req.param('id');
    await sessions.end(id, new ServiceError('SESSION_UNKNOWN', `session ${id} was deleted`));
    return c.body(null, 204);
  });
}

/** `/v1/locks`: acquire (long-poll), release, renew, the snapshot. */
function lockRoutes(app: Hono, calls: LockCalls): void {
  app.post('/v1/locks/:name/acquire', async (c) => {
    const name = lockName(c);
    return c.json(await calls.acquire(name, await body(c, AcquireBody), c.req.raw.signal));
  });
  app.post('/v1/locks/:name/release', async (c) => {
    const name = lockName(c);
    await calls.release(name, (await body(c, HolderBody)).session);
    return c.json({ name, released: true });
  });
  app.post('/v1/locks/:name/renew', async (c) => {
    const name = lockName(c);
    return c.json(calls.renew(name, (await body(c, HolderBody)).session));
  });
  app.get('/v1/locks', async (c) => {
    const snap = await calls.snapshot(c.req.raw.signal);
    const out = (xs: typeof snap.held) => xs.map((x) => ({ ...x, token: x.token ?? null }));
    return c.json({ held: out(snap.held), pending: out(snap.pending), unreachable: snap.unreachable });
  });
}
