/**
 * The single-instance Redis lock (the pattern of the Redis documentation, "Distributed locks
 * with Redis", single instance): acquire is `SET key token NX PX ttl` with a token unique to
 * this acquisition, retried at once while another client holds the key (each try is one round
 * trip, so a waiting client polls at the round-trip rate); release is the compare-and-delete
 * Lua script (`if GET key == token then DEL key`), by `EVALSHA`.
 */
import { createClient } from 'redis';
import type { Round } from './drive.js';
import type { NamedRound } from './names-workload.js';

/** Deletes the key only when it still holds this client's token. */
const RELEASE_SCRIPT = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;

/** The lock's lease, ms: far longer than any round, so it never expires under a holder. */
const LEASE_MS = 10_000;

/** A connected lock client: `round` acquires and releases the lock once. */
export interface LockClient {
  readonly round: Round;
  close(): Promise<void>;
}

/** A connected client that can lock any key: `lock(key)` acquires and releases it once. */
export interface KeyedLockClient {
  readonly lock: NamedRound;
  close(): Promise<void>;
}

/**
 * Connects one client (one TCP connection) to the Redis server on `127.0.0.1:port`, locking
 * the keys it is given; `name` makes its tokens unique among clients.
 * @throws Error (from the client) when the server cannot be reached.
 */
export async function redisKeyedLockClient(port: number, name: string): Promise<KeyedLockClient> {
  const client = createClient({ socket: { host: '127.0.0.1', port } });
  client.on('error', () => {
    // connection errors surface as rejected commands
  });
  await client.connect();
  const sha = await client.scriptLoad(RELEASE_SCRIPT);
  let serial = 0;
  const lock: NamedRound = async (key) => {
    const token = `${name}:${++serial}`;
    while (
      (await client.set(key, token, { condition: 'NX', expiration: { type: 'PX', value: LEASE_MS } })) ===
      null
    ) {
      // held by another client: try again
    }
    const released = await client.evalSha(sha, { keys: [key], arguments: [token] });
    if (released !== 1)
      throw new Error(`redis lock ${key}: release of ${token} deleted nothing (lease lost?)`);
  };
  return {
    lock,
    close: async () => {
      client.destroy();
    },
  };
}

/** {@link redisKeyedLockClient} on the one key `key`: `round` acquires and releases it once. */
export async function redisLockClient(port: number, key: string, name: string): Promise<LockClient> {
  const keyed = await redisKeyedLockClient(port, name);
  return { round: () => keyed.lock(key), close: keyed.close };
}

/** The server's `used_memory` (INFO memory), bytes. */
export async function redisUsedMemory(port: number): Promise<number> {
  const client = createClient({ socket: { host: '127.0.0.1', port } });
  client.on('error', () => {});
  await client.connect();
  try {
    const info = await client.info('memory');
    return Number(/used_memory:(\d+)/.exec(info)?.[1] ?? Number.NaN);
  } finally {
    client.destroy();
  }
}

/** Resolves once the Redis server on `port` answers PING. */
export async function redisReady(port: number): Promise<void> {
  const client = createClient({ socket: { host: '127.0.0.1', port, reconnectStrategy: false } });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
  } finally {
    if (client.isOpen) client.destroy();
  }
}
