/**
 * The etcd lock of the `etcd3` client (`client.lock(key)`): acquire grants a lease and puts the
 * key under it in a transaction that succeeds only when the key does not exist; release revokes
 * the lease. `acquire` does not wait: while another client holds the key it revokes its own
 * lease and rejects with `EtcdLockFailedError`, so a contending client retries at once.
 */
import { Etcd3, EtcdLockFailedError } from 'etcd3';
import type { LockClient } from './redis-lock.js';

/** Lease TTL of the lock, s (the etcd3 default is 30). */
const LEASE_TTL_S = 10;

/**
 * A client (its own gRPC connection) of the etcd member on `127.0.0.1:port`, locking `key`.
 * @throws Error (from the client) on a failure other than a held lock.
 */
export function etcdLockClient(port: number, key: string): LockClient {
  const client = new Etcd3({ hosts: `http://127.0.0.1:${port}` });
  const round = async () => {
    for (;;) {
      const lock = client.lock(key).ttl(LEASE_TTL_S);
      try {
        await lock.acquire();
      } catch (err) {
        if (err instanceof EtcdLockFailedError) continue;
        throw err;
      }
      await lock.release();
      return;
    }
  };
  return {
    round,
    close: async () => {
      client.close();
    },
  };
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
