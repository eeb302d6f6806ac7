import net from 'node:net';
import { ConfigurationError } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import { freeLoopbackPorts } from '../src/setup.js';

function listen(port: number): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(port, '127.0.0.1', () => resolve(s));
  });
}

describe('freeLoopbackPorts', () => {
  it('returns n distinct ports that can be bound on 127.0.0.1 right away (the listeners are closed)', async () => {
    const ports = await freeLoopbackPorts(6);
    expect(ports).toHaveLength(6);
    expect(new Set(ports).size).toBe(6);
    for (const p of ports) {
      expect(Number.isInteger(p)).toBe(true);
      expect(p).toBeGreaterThan(0);
      expect(p).toBeLessThanOrEqual(65535);
    }
    // Closed before resolving: every one of them can be bound again, all at once.
    const servers = await Promise.all(ports.map(listen));
    expect(servers.map((s) => (s.address() as net.AddressInfo).port)).toEqual(ports);
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  });

  it('gives [] for n = 0 and refuses an n that is not a non-negative integer', async () => {
    await expect(freeLoopbackPorts(0)).resolves.toEqual([]);
    for (const n of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(freeLoopbackPorts(n)).rejects.toThrow(ConfigurationError);
    }
    await expect(freeLoopbackPorts(-1)).rejects.toThrow(/n must be a non-negative integer, got -1/);
  });
});
