import { noProgressMs, progressWatchdog } from '@critsec/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Certificates, makeCertificates } from '../src/critsec-clusters.js';
import { stopCpuClocks } from '../src/cpu.js';
import { type HttpSizes, runHttpScenario } from '../src/http-scenario.js';
import { type RunningServer, startRedis } from '../src/servers.js';

/** Tiny sizes: 3 members, 4 clients, 8 names, 4 timed rounds per client on them (16 acquisitions), 3 on one name. */
const sizes: HttpSizes = {
  n: 3,
  clients: 4,
  names: 8,
  rounds: 4,
  oneRounds: 3,
  warmup: 2,
  readyTimeoutMs: noProgressMs(),
  // OS processes of `critsec node --serve` cost more CPU than a short test may: `npm run bench:locks` runs those
  inProcess: true,
};

/*
 * etcd is left out, as in the names scenario's test: under vitest's worker the etcd3 client
 * decodes etcd's 64-bit lease ids as lossy numbers. `npm run bench:locks` runs the etcd rows.
 */
describe('the HTTP scenario, tiny', () => {
  let certs: Certificates;
  let redis: RunningServer | undefined;
  beforeAll(async () => {
    certs = await makeCertificates(sizes.n);
    redis = await startRedis(false);
  });
  afterAll(async () => {
    await redis?.stop();
    stopCpuClocks();
    certs?.remove();
  });

  it('drives the lock services through HTTP beside Redis and prints every row and ratio', async () => {
    let stall: ((e: Error) => void) | undefined;
    const stalled = new Promise<never>((_, reject) => {
      stall = reject;
    });
    const watchdog = progressWatchdog({
      onStall: (ms) => stall!(new Error(`http scenario: no system finished for ${ms} ms`)),
    });
    const lines: string[] = [];
    const result = await Promise.race([
      runHttpScenario({
        sizes,
        certs,
        redis: redis && { ...redis, version: 'test' },
        log: (line) => {
          lines.push(line);
          watchdog.progress();
        },
      }),
      stalled,
    ]).finally(() => watchdog.stop());
    const systems = ['critsec', ...(redis ? ['Redis'] : [])];
    expect(result.rows.map((r) => r.label.split(' ')[0])).toEqual(systems.flatMap((s) => [s, s]));
    for (const row of result.rows) {
      expect(result.text).toContain(`| ${row.label} |`);
      const many = row.names > 1;
      expect(row.timed).toHaveLength(sizes.clients);
      for (const t of row.timed) expect(t).toHaveLength(many ? sizes.rounds : sizes.oneRounds);
      // 16 acquisitions in sweeps of 8: every name used
      if (many) expect(row.names).toBe(sizes.names);
      expect(row.cpuMsPerRound).toBeGreaterThan(0);
    }
    expect(result.text).toContain(
      'critsec HTTP API (critsec node --serve, Maekawa, majority, fencing), one process',
    );
    if (redis)
      expect(result.text).toMatch(
        /\| critsec HTTP API .*, 8 names \/ Redis test lock .*, 8 keys \| [\d.]+× \|/,
      );
    expect(lines).toHaveLength(systems.length);
  });
});
