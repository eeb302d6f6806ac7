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
 * Options: --quick (a fifth of the rounds, one repetition), --reps <r> (default 3), --only <text>
 * (only the systems whose label contains it, case-insensitive).
 */
import { parseArgs } from 'node:util';
import { makeCertificates } from '../src/critsec-clusters.js';
import { etcdReady } from '../src/etcd-lock.js';
import { busiestProcesses, machineLine, uptime, versionOf } from '../src/machine.js';
import { redisReady } from '../src/redis-lock.js';
import { findBinary, INSTALL_HINT, type RunningServer, startServer } from '../src/servers.js';
import { type BenchSystem, critsecSystems, echoSystem, etcdSystem, redisSystem } from '../src/systems.js';
import { stopCpuClocks } from '../src/cpu.js';
import { markdownTable, resultOf, type SystemSample } from '../src/table.js';
import { checkTargets, formatTargets } from '../src/targets.js';
import { startEchoServer } from '../src/tcp-echo.js';

const N = 5;
const { values } = parseArgs({
  options: { quick: { type: 'boolean' }, reps: { type: 'string' }, only: { type: 'string' } },
});
const quick = values.quick === true;
const reps = Number(values.reps ?? (quick ? 1 : 3));
const scale = quick ? 0.2 : 1;

/**
 * A redis-server on a free loopback port. `durable`: every write appended to its AOF and synced
 * before the reply (`appendonly yes`, `appendfsync always`) — the fair comparison for a durable
 * lock; otherwise no persistence at all (`save ''`, `appendonly no`), Redis' fastest.
 */
async function startRedis(durable: boolean): Promise<RunningServer | undefined> {
  const bin = findBinary('redis-server');
  if (bin === undefined) {
    console.log(`redis-server not found: the Redis row is skipped. Install: ${INSTALL_HINT}`);
    return undefined;
  }
  return startServer(
    bin,
    (port, _peer, dir) => [
      '--port',
      `${port}`,
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      durable ? 'yes' : 'no',
      ...(durable ? ['--appendfsync', 'always'] : []),
      '--dir',
      dir,
    ],
    redisReady,
  );
}

async function startEtcd(): Promise<RunningServer | undefined> {
  const bin = findBinary('etcd');
  if (bin === undefined) {
    console.log(`etcd not found: the etcd row is skipped. Install: ${INSTALL_HINT}`);
    return undefined;
  }
  return startServer(
    bin,
    (port, peer, dir) => [
      '--name=bench',
      `--data-dir=${dir}`,
      `--listen-client-urls=http://127.0.0.1:${port}`,
      `--advertise-client-urls=http://127.0.0.1:${port}`,
      `--listen-peer-urls=http://127.0.0.1:${peer}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${peer}`,
      `--initial-cluster=bench=http://127.0.0.1:${peer}`,
      '--logger=zap',
      '--log-level=error',
    ],
    etcdReady,
  );
}

async function main(): Promise<void> {
  console.log(
    `# bench:locks — n = ${N}, loopback, ${quick ? 'quick, ' : ''}${reps} interleaved repetition(s)`,
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
    const systems: BenchSystem[] = [...critsecSystems(N, certs, scale)];
    if (etcd) systems.push(etcdSystem(N, etcd, versionOf('etcd', /etcd Version: (\S+)/), scale));
    const redisVersion = versionOf('redis-server', /v=(\S+)/);
    if (redis) systems.push(redisSystem(N, redis, redisVersion, scale));
    if (redisAof) systems.push(redisSystem(N, redisAof, redisVersion, scale, 'AOF, appendfsync always'));
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
