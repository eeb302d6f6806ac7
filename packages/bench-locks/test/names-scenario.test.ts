import { noProgressMs, progressWatchdog } from '@critsec/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Certificates, makeCertificates } from '../src/critsec-clusters.js';
import { stopCpuClocks } from '../src/cpu.js';
import { runNamesScenario } from '../src/names-scenario.js';
import type { NamesSizes } from '../src/names-systems.js';
import { type RunningServer, startRedis } from '../src/servers.js';

/** Tiny sizes: 20 names, 5 members with 2 clients each, 5 timed rounds per client (50 acquisitions). */
const sizes: NamesSizes = {
  n: 5,
  names: 20,
  clientsPerMember: 2,
  rounds: 5,
  oneRounds: 3,
  warmup: 3,
  readyTimeoutMs: noProgressMs(),
  // five OS processes cost more CPU than a short test may: `npm run bench:locks` runs those
  inProcess: true,
};

/*
 * etcd is left out here: under vitest's worker the etcd3 client decodes etcd's 64-bit lease ids
 * as lossy numbers (protobufjs does not find `long` there: 8628230718701848000 where a plain
 * `node` run gets the exact '4623686225042651910'), so every lock transaction names a lease etcd
 * does not know. `npm run bench:locks` runs the etcd rows under plain node.
 */
describe('the "1,000 names" scenario, at 20 names', () => {
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

  it('runs every system it has a server for and prints every row, with the memory of the many-names rows', async () => {
    const lines: string[] = [];
    let stall: ((e: Error) => void) | undefined;
    const stalled = new Promise<never>((_, reject) => {
      stall = reject;
    });
    const watchdog = progressWatchdog({
      onStall: (ms) => stall!(new Error(`names scenario: no system finished for ${ms} ms`)),
    });
    const result = await Promise.race([
      runNamesScenario({
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
    const systems = ['@critsec/locks', ...(redis ? ['Redis'] : [])];
    expect(result.rows.map((r) => r.label.split(' ')[0])).toEqual(systems.flatMap((s) => [s, s]));
    for (const row of result.rows) {
      expect(result.text).toContain(`| ${row.label} |`);
      const many = row.names > 1;
      const rounds = many ? sizes.rounds : sizes.oneRounds;
      expect(row.timed).toHaveLength(sizes.n * sizes.clientsPerMember);
      for (const t of row.timed) expect(t).toHaveLength(rounds);
      expect(row.memory !== undefined).toBe(many);
      // the sweep uses every name once per 20 acquisitions: all of them at 50
      if (many) expect(row.names).toBe(sizes.names);
    }
    const critsecMany = result.rows[1]!;
    // every member kept the names it took part in, and none is left live
    expect(critsecMany.memory!.what).toMatch(/\(\d+ kept states, 0 live\)/);
    expect(result.text).toContain('@critsec/locks (Maekawa, majority), one process, mTLS, 20 names / ');
    expect(lines).toHaveLength(systems.length);
  });
});
