/**
 * A client of critsec's lock service (`critsec node --serve`, `@critsec/service`) as an
 * application would use it: one session (`POST /v1/sessions`), then per round `POST
 * /v1/locks/{name}/acquire` — a long-poll answered once granted — and `POST
 * /v1/locks/{name}/release`; `DELETE /v1/sessions/{id}` at the end. One keep-alive HTTP/1.1
 * connection per client (`node:http`, an agent of one socket), so the clients cost what curl or
 * Python's `urllib` with keep-alive would, without a pool in between.
 */
import { Agent, request } from 'node:http';
import type { NamedRound } from './names-workload.js';
import type { KeyedLockClient } from './redis-lock.js';

/** A session's ttl, ms: an hour (the service's maximum), longer than any run, so no keepalive is needed. */
const SESSION_TTL_MS = 3_600_000;

/** The service's answer: its status and parsed body (`undefined` when empty). */
interface Answer {
  readonly status: number;
  readonly body: unknown;
}

/** One HTTP request with a JSON body (or none) over `agent`. */
function call(agent: Agent, port: number, method: string, path: string, body?: unknown): Promise<Answer> {
  const data = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method,
        path,
        headers:
          data === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({ status: res.statusCode ?? 0, body: text === '' ? undefined : JSON.parse(text) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

/** `answer` when its status is `expected`. @throws Error naming the request and the service's error body otherwise. */
function expectStatus(answer: Answer, expected: number, what: string): Answer {
  if (answer.status !== expected)
    throw new Error(`lock service: ${what} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer;
}

/**
 * Opens a session at the lock service on `127.0.0.1:port`; `lock(name)` acquires and releases
 * `name` once through it.
 * @throws Error when the service cannot be reached or refuses the session; `lock` rejects with the
 *   service's error (status and body) when an acquire or a release is not answered 200.
 */
export async function httpKeyedLockClient(port: number): Promise<KeyedLockClient> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const created = expectStatus(
    await call(agent, port, 'POST', '/v1/sessions', { ttlMs: SESSION_TTL_MS }),
    201,
    'POST /v1/sessions',
  );
  const session = (created.body as { id: string }).id;
  const lock: NamedRound = async (name) => {
    const path = `/v1/locks/${encodeURIComponent(name)}`;
    expectStatus(await call(agent, port, 'POST', `${path}/acquire`, { session }), 200, `acquire ${name}`);
    expectStatus(await call(agent, port, 'POST', `${path}/release`, { session }), 200, `release ${name}`);
  };
  return {
    lock,
    close: async () => {
      try {
        await call(agent, port, 'DELETE', `/v1/sessions/${session}`);
      } finally {
        agent.destroy();
      }
    },
  };
}

/** Whether the member on `port` answers `/readyz` with 200 (its quorum connected); false when unreachable. */
export async function httpReady(port: number): Promise<boolean> {
  const agent = new Agent({ keepAlive: false });
  try {
    return (await call(agent, port, 'GET', '/readyz')).status === 200;
  } catch {
    return false;
  } finally {
    agent.destroy();
  }
}
