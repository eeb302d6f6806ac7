/**
 * The OpenAPI 3.1 document of the lock service, generated from the valibot schemas of
 * `schemas.ts` (`@valibot/to-json-schema`, JSON Schema 2020-12 — OpenAPI 3.1's dialect): served
 * at `/openapi.json` and checked in as the package's `openapi.json` (a test fails when they
 * differ; `npm run openapi` in the package writes it).
 */
import { toJsonSchemaDefs } from '@valibot/to-json-schema';
import {
  AcquireBody,
  CreateSessionBody,
  ErrorResponse,
  HealthResponse,
  HolderBody,
  LockResponse,
  ReleasedResponse,
  SessionResponse,
  SnapshotResponse,
} from './schemas.js';
import { MAX_LOCK_NAME_LENGTH } from '@critsec/locks';

const SCHEMAS = {
  CreateSessionBody,
  SessionResponse,
  AcquireBody,
  HolderBody,
  LockResponse,
  ReleasedResponse,
  SnapshotResponse,
  HealthResponse,
  ErrorResponse,
};

type SchemaName = keyof typeof SCHEMAS;

const ref = (name: SchemaName) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: SchemaName) => ({ content: { 'application/json': { schema: ref(name) } } });
const error = (description: string) => ({ description, ...json('ErrorResponse') });

const ERRORS = {
  '400': error('BAD_REQUEST (malformed JSON, a body its schema refuses), INVALID_NAME, INVALID_OPTIONS'),
  '401': error('UNAUTHENTICATED: no or a wrong bearer token (when the service has one)'),
  '404': error('SESSION_UNKNOWN, NOT_FOUND'),
  '410': error('SESSION_EXPIRED: the session was not kept alive within its ttl'),
  '413': error('PAYLOAD_TOO_LARGE'),
  '503': error('SHUTTING_DOWN'),
};

const nameParam = {
  name: 'name',
  in: 'path',
  required: true,
  description: `the lock name: 1 to ${MAX_LOCK_NAME_LENGTH} characters, no '/' (percent-encode others)`,
  schema: { type: 'string', minLength: 1, maxLength: MAX_LOCK_NAME_LENGTH },
};
const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const post = (summary: string, bodyName: SchemaName, ok: Record<string, unknown>, extra: object = {}) => ({
  post: {
    summary,
    requestBody: { required: true, ...json(bodyName) },
    responses: { ...ok, ...ERRORS, ...extra },
  },
});

function paths(): Record<string, unknown> {
  const health = (d: string) => ({ description: d, ...json('HealthResponse') });
  return {
    '/healthz': { get: { summary: 'the process is up', responses: { '200': health('up') } } },
    '/readyz': {
      get: {
        summary: 'connected to a quorum and able to grant',
        description:
          "200 when every member of the quorum an entry at this member asks now is connected and not suspected by the failure detector: the member's own quorum of the coterie, or with quorum reselection (the configuration's params.reselect) a quorum of the coterie's family avoiding every suspected member; 503 otherwise (`detail` names whom it misses) and while shutting down.",
        responses: { '200': health('ready'), '503': health('not ready, or shutting down') },
      },
    },
    '/metrics': {
      get: {
        summary: 'the Prometheus series of @critsec/locks and of the service',
        responses: { '200': { description: 'Prometheus text format', content: { 'text/plain': {} } } },
      },
    },
    '/openapi.json': {
      get: { summary: 'this document', responses: { '200': { description: 'OpenAPI 3.1' } } },
    },
    '/v1/sessions': post('create a session', 'CreateSessionBody', {
      '201': { description: 'created', ...json('SessionResponse') },
    }),
    '/v1/sessions/{id}/keepalive': {
      parameters: [idParam],
      post: {
        summary: 'restart the session ttl',
        responses: { '200': { description: 'kept alive', ...json('SessionResponse') }, ...ERRORS },
      },
    },
    '/v1/sessions/{id}': {
      parameters: [idParam],
      delete: {
        summary: 'end the session: its waits aborted, its locks released',
        responses: { '204': { description: 'ended' }, ...ERRORS },
      },
    },
    '/v1/locks': {
      get: {
        summary: 'the cluster-wide snapshot (query())',
        responses: { '200': { description: 'held and pending', ...json('SnapshotResponse') }, ...ERRORS },
      },
    },
    '/v1/locks/{name}/acquire': {
      parameters: [nameParam],
      ...post(
        'wait until the session holds the lock (long-poll)',
        'AcquireBody',
        { '200': { description: 'granted', ...json('LockResponse') } },
        { '409': error('LOCK_ALREADY_REQUESTED, LOCK_UNAVAILABLE (ifAvailable), LOCK_TIMEOUT') },
      ),
    },
    '/v1/locks/{name}/release': {
      parameters: [nameParam],
      ...post(
        'release a lock the session holds',
        'HolderBody',
        { '200': { description: 'released', ...json('ReleasedResponse') } },
        { '409': error('LOCK_NOT_HELD, LOCK_EXPIRED (its grant had expired: released already)') },
      ),
    },
    '/v1/locks/{name}/renew': {
      parameters: [nameParam],
      ...post(
        'keep the session alive and report the grant (token, time left)',
        'HolderBody',
        { '200': { description: 'held', ...json('LockResponse') } },
        { '409': error('LOCK_NOT_HELD, LOCK_EXPIRED') },
      ),
    },
  };
}

/** The OpenAPI 3.1 document of the service (a fresh object each call). */
export function openApiDocument(): Record<string, unknown> {
  const defs = toJsonSchemaDefs(SCHEMAS, { target: 'draft-2020-12' });
  const schemas = Object.fromEntries(
    Object.entries(defs).map(([k, s]) => {
      const { $schema: _, ...rest } = s as Record<string, unknown>;
      return [k, rest];
    }),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'critsec lock service',
      version: '1',
      description:
        'Named distributed locks of @critsec/locks over HTTP/JSON (critsec node --serve): sessions with a ttl, long-poll acquire with fencing tokens, release, renew, the cluster-wide snapshot. Times in ms.',
    },
    components: {
      schemas,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    },
    security: [{}, { bearer: [] }],
    paths: paths(),
  };
}
