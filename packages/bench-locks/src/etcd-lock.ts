/**
 * The etcd lock of the `etcd3` client (`client.lock(key)`): acquire grants a lease and puts the
 * key under it in a transaction that succeeds only when the key does not exist; release revokes
 * the lease. `acquire` does not wait: while another client holds the key it revokes its own
 * lease and rejects with `EtcdLockFailedError`, so a contending client retries at once.
 */
import { Etcd3, EtcdLockFailedError } from 'etcd3';
import type { KeyedLockClient, LockClient } from './redis-lock.js';

/** Lease TTL of the lock, s (the etcd3 default is 30). */
const LEASE_TTL_S = 10;

/**
 * A client (its own gRPC connection) of the etcd member on `127.0.0.1:port`, locking the keys it
 * is given.
 * @throws Error (from the client) on a failure other than a held lock.
 */
export function etcdKeyedLockClient(port: number): KeyedLockClient {
  const client = new Etcd3({ hosts: `http://127.0.0.1:${port}` });
  const lock = async (key: string) => {
    for (;;) {
      const held = client.lock(key).ttl(LEASE_TTL_S);
      try {
        await held.acquire();
      } catch (err) {
        if (err instanceof EtcdLockFailedError) continue;
        throw err;
      }
      await held.release();
      return;
    }
  };
  return {
    lock,
    close: async () => {
      client.close();
    },
  };
}

/** {@link etcdKeyedLockClient} on the one key `key`: `round` acquires and releases it once. */
export function etcdLockClient(port: number, key: string): LockClient {
  const keyed = etcdKeyedLockClient(port);
  return { round: () => keyed.lock(key), close: keyed.close };
}

/** Resolves once the etcd member on `port` answers a read. */
export async function etcdReady(port: number): Promise<void> {
  const client = new Etcd3({ hosts: `http://127.0.0.1:${port}`, dialTimeout: 500 });
  try {
    await client.get('critsec-bench-ready').string();
  } finally {
    client.close();
  }
}

/** The member's backend database size (`dbSize` of the maintenance status), bytes. */
export async function etcdDbSize(port: number): Promise<number> {
  const client = new Etcd3({ hosts: `http://127.0.0.1:${port}` });
  try {
    return Number((await client.maintenance.status()).dbSize);
  } finally {
    client.close();
  }
}
