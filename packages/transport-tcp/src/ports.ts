/**
 * Free TCP ports on the loopback interface, chosen by the operating system — for clusters on
 * one machine (`createLocalCluster`, `critsec cluster`, tests and benchmarks).
 */
import net from 'node:net';
import { ConfigurationError } from '@critsec/core';

/**
 * Returns `n` distinct TCP ports that were free on 127.0.0.1 a moment ago: it binds `n`
 * listeners to port 0 at once (so the OS hands out `n` different ephemeral ports), reads their
 * ports and closes them again before resolving.
 *
 * The ports are only *probably* still free when you bind them: another process can take one in
 * between. A caller that cannot tolerate that retries with fresh ports on `EADDRINUSE`.
 *
 * @param n - how many ports (a non-negative integer; 0 gives `[]`).
 * @returns the ports, in the order the listeners were bound.
 * @throws ConfigurationError when `n` is not a non-negative safe integer.
 * @throws the listen error (e.g. `EADDRNOTAVAIL` without a loopback interface, `EMFILE`); every
 *   listener opened so far is closed first.
 */
export async function freeLoopbackPorts(n: number): Promise<number[]> {
  if (!(Number.isSafeInteger(n) && n >= 0)) {
    throw new ConfigurationError(`freeLoopbackPorts: n must be a non-negative integer, got ${n}`);
  }
  const servers: net.Server[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const s = net.createServer();
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(0, '127.0.0.1', () => resolve());
      });
      servers.push(s);
    }
    return servers.map((s) => (s.address() as net.AddressInfo).port);
  } finally {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  }
}
