/**
 * The service's API as typed calls: `openapi-fetch` over the paths generated from the service's
 * OpenAPI document (`generated/api.ts`), so a path, body or answer the document does not have fails to
 * compile; every answer other than 2xx becomes the typed error of its code (`errors.ts`), and a
 * failed or late fetch a `ConnectionError`.
 */
import createClient from 'openapi-fetch';
import type { paths } from '../generated/api.js';
import { answerError, ConnectionError } from './errors.js';
import { linked } from './signals.js';

/** The typed fetch client of the service's paths. */
export type ApiClient = ReturnType<typeof createClient<paths>>;

/** What an `openapi-fetch` call resolves with. */
interface Answered<T> {
  readonly data?: T;
  readonly error?: unknown;
  readonly response: Response;
}

/** A `fetch` as the client takes it (the global `fetch` is one). */
export type Fetch = (request: Request) => Promise<Response>;

/** The API client for `baseUrl`, with the bearer `token` on every call when given. */
export function apiClient(baseUrl: string, token: string | undefined, fetch: Fetch | undefined): ApiClient {
  return createClient<paths>({
    baseUrl,
    ...(fetch === undefined ? {} : { fetch }),
    ...(token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } }),
  });
}

/**
 * Runs one call: `run(signal)` with a signal aborted by any of `signals` or after `deadlineMs` ms.
 * Resolves with the answer's body when it is 2xx.
 * @throws the reason of the first of `signals` that aborted (the caller's `AbortError`, a session
 *   that ended…); `ConnectionError` when the fetch failed or the deadline passed; the typed error
 *   of the answer's code otherwise.
 */
export async function call<T>(
  what: string,
  run: (signal: AbortSignal) => Promise<Answered<T>>,
  signals: readonly (AbortSignal | undefined)[],
  deadlineMs: number | undefined,
): Promise<T> {
  const link = linked(signals, deadlineMs, what);
  let answered: Answered<T>;
  try {
    answered = await run(link.signal);
  } catch (err) {
    if (link.signal.aborted) throw link.signal.reason;
    throw new ConnectionError(
      'UNREACHABLE',
      0,
      `${what}: ${err instanceof Error ? err.message : String(err)}`,
      {
        cause: err,
      },
    );
  } finally {
    link.dispose();
  }
  if (!answered.response.ok) throw answerError(answered.response.status, answered.error, what);
  return answered.data as T;
}
