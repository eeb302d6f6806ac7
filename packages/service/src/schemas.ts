/**
 * The lock service's request and response bodies as valibot schemas: the server checks every
 * request body with them, and the OpenAPI document (`openapi.ts`) is generated from them, so the
 * two cannot disagree. Times are in **ms** (the member's monotonic clock).
 */
import { MAX_LOCK_NAME_LENGTH } from '@critsec/locks';
import * as v from 'valibot';

/** The longest session ttl the service accepts, ms (one hour). */
export const MAX_SESSION_TTL_MS = 3_600_000;

/** The shortest session ttl the service accepts, ms. */
export const MIN_SESSION_TTL_MS = 100;

/** The longest wait an acquire may ask for, ms (one hour; a longer wait is a client's loop). */
export const MAX_WAIT_MS = 3_600_000;

const ms = (max: number, min = 0) => v.pipe(v.number(), v.safeInteger(), v.minValue(min), v.maxValue(max));

/** `POST /v1/sessions`. */
export const CreateSessionBody = v.strictObject({
  ttlMs: v.pipe(
    ms(MAX_SESSION_TTL_MS, MIN_SESSION_TTL_MS),
    v.description('how long the session lives without a keepalive, ms'),
  ),
});

/** What `POST /v1/sessions` and its keepalive answer. */
export const SessionResponse = v.strictObject({
  id: v.pipe(v.string(), v.description('the session id (opaque)')),
  ttlMs: v.pipe(v.number(), v.description('the session ttl, ms')),
});

/** The lock modes (`@critsec/locks`). */
const Mode = v.picklist(['exclusive', 'shared']);

/** `POST /v1/locks/{name}/acquire`. */
export const AcquireBody = v.strictObject({
  session: v.pipe(
    v.string(),
    v.minLength(1),
    v.maxLength(128),
    v.description('the session that will hold it'),
  ),
  mode: v.optional(Mode),
  ifAvailable: v.optional(
    v.pipe(v.boolean(), v.description('answer 409 LOCK_UNAVAILABLE at once instead of waiting')),
  ),
  timeoutMs: v.optional(
    v.pipe(ms(MAX_WAIT_MS), v.description('answer 409 LOCK_TIMEOUT if not granted within this, ms')),
  ),
});

/** `POST /v1/locks/{name}/release` and `…/renew`. */
export const HolderBody = v.strictObject({
  session: v.pipe(v.string(), v.minLength(1), v.maxLength(128)),
});

/** A lock a session holds: what acquire and renew answer. */
export const LockResponse = v.strictObject({
  name: v.string(),
  mode: Mode,
  token: v.pipe(
    v.nullable(v.number()),
    v.description('the fencing token (grows with every grant of the name), null without fencing/ttl'),
  ),
  remainingMs: v.pipe(
    v.nullable(v.number()),
    v.description(
      'time left of a time-bounded grant, ms; null without a ttl (the grant lasts until released)',
    ),
  ),
});

/** What release answers. */
export const ReleasedResponse = v.strictObject({ name: v.string(), released: v.literal(true) });

const LockInfo = v.strictObject({
  name: v.string(),
  mode: Mode,
  holder: v.pipe(v.number(), v.description('the member id holding or asking')),
  token: v.nullable(v.number()),
});

/** `GET /v1/locks`: the cluster-wide snapshot of `query()`. */
export const SnapshotResponse = v.strictObject({
  held: v.array(LockInfo),
  pending: v.array(LockInfo),
  unreachable: v.pipe(
    v.array(v.number()),
    v.description(
      'members whose state is missing: the answering member suspects them (left, or down past its failure detector timeout)',
    ),
  ),
});

/** `/healthz` and `/readyz`. */
export const HealthResponse = v.strictObject({
  status: v.picklist(['ok', 'ready', 'not-ready', 'shutting-down']),
  member: v.number(),
  detail: v.optional(v.string()),
});

/** The error codes of the error body `{ error: { code, message } }` (the README lists the status of each). */
export const ERROR_CODES = [
  'BAD_REQUEST',
  'INVALID_NAME',
  'INVALID_OPTIONS',
  'UNAUTHENTICATED',
  'NOT_FOUND',
  'PAYLOAD_TOO_LARGE',
  'SESSION_UNKNOWN',
  'SESSION_EXPIRED',
  'TOO_MANY_SESSIONS',
  'LOCK_ALREADY_REQUESTED',
  'LOCK_NOT_HELD',
  'LOCK_UNAVAILABLE',
  'LOCK_TIMEOUT',
  'LOCK_EXPIRED',
  'SHUTTING_DOWN',
  'INTERNAL',
] as const;

/** One of {@link ERROR_CODES}. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Every 4xx/5xx answer's body. */
export const ErrorResponse = v.strictObject({
  error: v.strictObject({ code: v.picklist(ERROR_CODES), message: v.string() }),
});

/** The longest lock name, re-exported for the path parameter's schema. */
export const LockName = v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_LOCK_NAME_LENGTH));
