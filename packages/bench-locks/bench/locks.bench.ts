/**
 * Issue 15's lock latency benchmark (`npm run bench:locks`): for n = 5 on loopback, the
 * uncontended and the 5-contending latency (p50, p99) and throughput of Maekawa as 5 OS
 * processes over mutual TLS, the same in one process, the (1,3)-GCS as 5 OS processes, the etcd
 * lock (etcd3 client), the single-Redis lock, the raw mutual-TLS round trip (the floor under
 * the critsec rows) and the raw TCP round trip; then issue 15's targets
 * as ratios measured side by side. The systems run interleaved: every repetition runs each of
 * them once, in table order. etcd and Redis are started from their Debian packages on free ports
 * with temporary data directories and stopped at the end; a missing one is skipped with the
 * command that installs it.
 *
 * Then, in the same run, the "1,000 names" scenario of issue 29 (`src/names-scenario.ts`):
 * `@critsec/locks` on 5 OS processes over 1,000 names and over one, beside Redis and etcd over
 * 1,000 keys and over one.
 *
 * Then the HTTP scenario of issue 30 (`src/http-scenario.ts`): critsec's lock service, 5 `critsec
 * node --serve` members, through its HTTP API from C clients, beside Redis and etcd from as many.
 *
 * Options: --quick (a fifth of the rounds, one repetition), --reps <r> (default 3), --only <text>
 * (only the latency table's systems whose label contains it, case-insensitive), --scenario
 * latency|names|http|all (default all: the latency table, the names scenario, the HTTP scenario;
 * --only implies latency), --clients <C> (the HTTP scenario's clients, default 20).
 */
import { parseArgs } from 'node:util';
import { type Certificates, makeCertificates } from '../src/critsec-clusters.js';
import { busiestProcesses, machineLine, uptime, versionOf } from '../src/machine.js';
import { HTTP_SIZES, runHttpScenario } from '../src/http-scenario.js';
import { NAMES_SIZES, runNamesScenario } from '../src/names-scenario.js';
import { type RunningServer, startEtcd, startRedis } from '../src/servers.js';
import { type BenchSystem, critsecSystems, echoSystem, etcdSystem, redisSystem } from '../src/systems.js';
import { stopCpuClocks } from '../src/cpu.js';
import { markdownTable, resultOf, type SystemSample } from '../src/table.js';
import { checkTargets, formatTargets } from '../src/targets.js';
import { type EchoServer, startEchoServer } from '../src/tcp-echo.js';

const N = 5;
const { values } = parseArgs({
  options: {
    quick: { type: 'boolean' },
    reps: { type: 'string' },
    only: { type: 'string' },
    scenario: { type: 'string' },
    clients: { type: 'string' },
  },
});
const quick = values.quick === true;
const reps = Number(values.reps ?? (quick ? 1 : 3));
const scale = quick ? 0.2 : 1;
const scenario = values.scenario ?? (values.only === undefined ? 'all' : 'latency');
if (!['latency', 'names', 'http', 'all'].includes(scenario)) {
  throw new Error(`--scenario must be latency, names, http or all, got ${scenario}`);
}
const clients = Number(values.clients ?? HTTP_SIZES.clients);
if (!(Number.isInteger(clients) && clients >= 1))
  throw new Error(`--clients must be an integer ≥ 1, got ${values.clients}`);

/** The latency table (issue 15) and its targets: every system `reps` times, interleaved. */
async function latencyTable(
  certs: Certificates,
  servers: {
    redis: RunningServer | undefined;
    redisAof: RunningServer | undefined;
    etcd: RunningServer | undefined;
    echo: EchoServer;
    tlsEcho: EchoServer;
  },
  v: { redisVersion: string; etcdVersion: string },
): Promise<void> {
  const { redis, redisAof, etcd, echo, tlsEcho } = servers;
  const systems: BenchSystem[] = [...critsecSystems(N, certs, scale)];
  if (etcd) systems.push(etcdSystem(N, etcd, v.etcdVersion, scale));
  if (redis) systems.push(redisSystem(N, redis, v.redisVersion, scale));
  if (redisAof) systems.push(redisSystem(N, redisAof, v.redisVersion, scale, 'AOF, appendfsync always'));
  systems.push(echoSystem(N, tlsEcho, scale, certs.dir), echoSystem(N, echo, scale));
  const only = values.only?.toLowerCase();
  if (only !== undefined)
    systems.splice(0, systems.length, ...systems.filter((s) => s.label.toLowerCase().includes(only)));
  const samples = systems.map((): SystemSample[] => []);
  for (let r = 0; r < reps; r++) {
    for (const [i, s] of systems.entries()) {
      const t0 = Date.now();
      samples[i]!.push(await s.run());
      console.log(`repetition ${r + 1}/${reps}: ${s.label} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    }
  }
  const results = systems.map((s, i) => resultOf(s.label, samples[i]!));
  console.log(`\n${markdownTable(results, N)}\n`);
  const find = (prefix: string) => results.find((r) => r.label.startsWith(prefix));
  const maekawaOs = find('Maekawa (grid), 5 OS');
  if (maekawaOs) console.log(`${formatTargets(checkTargets(maekawaOs, find('etcd'), find('Redis')))}\n`);
}

async function main(): Promise<void> {
  console.log(
    `# bench:locks — n = ${N}, loopback, ${quick ? 'quick, ' : ''}scenario ${scenario}` +
      (scenario === 'latency' || scenario === 'all'
        ? `, ${reps} interleaved repetition(s) of the latency table`
        : ''),
  );
  console.log(`date: ${new Date().toISOString()}\nmachine: ${machineLine()}\nbefore: ${uptime()}`);
  console.log(`busiest processes before:\n${busiestProcesses()}\n`);
  const certs = await makeCertificates(N);
  const redis = await startRedis(false);
  const redisAof = await startRedis(true);
  const etcd = await startEtcd();
  const echo = await startEchoServer();
  const tlsEcho = await startEchoServer(certs.dir);
  try {
    const redisVersion = versionOf('redis-server', /v=(\S+)/);
    const etcdVersion = versionOf('etcd', /etcd Version: (\S+)/);
    if (scenario === 'latency' || scenario === 'all') {
      await latencyTable(certs, { redis, redisAof, etcd, echo, tlsEcho }, { redisVersion, etcdVersion });
    }
    if (scenario === 'names' || scenario === 'all') {
      const sizes = quick
        ? { ...NAMES_SIZES, rounds: NAMES_SIZES.rounds / 5, oneRounds: NAMES_SIZES.oneRounds / 5 }
        : NAMES_SIZES;
      const names = await runNamesScenario({
        sizes,
        certs,
        redis: redis && { ...redis, version: redisVersion },
        etcd: etcd && { ...etcd, version: etcdVersion },
      });
      console.log(`\n${names.text}\n`);
    }
    if (scenario === 'http' || scenario === 'all') {
      const sizes = quick
        ? { ...HTTP_SIZES, clients, rounds: HTTP_SIZES.rounds / 5, oneRounds: HTTP_SIZES.oneRounds / 5 }
        : { ...HTTP_SIZES, clients };
      const http = await runHttpScenario({
        sizes,
        certs,
        redis: redis && { ...redis, version: redisVersion },
        etcd: etcd && { ...etcd, version: etcdVersion },
      });
      console.log(`\n${http.text}\n`);
    }
    console.log(`after: ${uptime()}\nbusiest processes after:\n${busiestProcesses()}`);
  } finally {
    await echo.stop();
    await tlsEcho.stop();
    await redis?.stop();
    await redisAof?.stop();
    await etcd?.stop();
    stopCpuClocks();
    certs.remove();
  }
}

await main();
