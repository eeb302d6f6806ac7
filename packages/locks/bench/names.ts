/**
 * `npm run bench` (this package): 5 members over mutual TLS on loopback, in one process —
 * acquisitions per second on one name and on 1,000 distinct names, and memory per idle name.
 * Each member runs `ROUNDS` exclusive requests one after the other (one name: all five contend
 * for it; 1,000 names: member i takes names i, i + 5, i + 10, … so every name is distinct while
 * in use), then every member reclaims its idle names and the heap growth after a full GC is
 * divided by the names kept. Figures depend on the machine; the README gives the command and
 * the figures of one run.
 */
import { tcpTransport } from '@critsec/transport-tcp';
import { createDevCertificates, freeLoopbackPorts } from '@critsec/transport-tcp/setup';
import { createLockManager, type LockManager } from '../src/index.js';

const n = 5;
const NAMES = 1_000;
const ROUNDS = NAMES / n;

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc (npm run bench does)');

const certs = await createDevCertificates(n);
const ports = await freeLoopbackPorts(n);
const peers = ports.map((port, id) => ({ id, host: '127.0.0.1', port }));
const transports = peers.map((p) =>
  tcpTransport({
    self: p.id,
    peers,
    tls: { ca: certs.ca, cert: certs.processes[p.id]!.cert, key: certs.processes[p.id]!.key },
    logger: { warn: () => {} },
    lingerMs: 0,
  }),
);
await Promise.all(transports.map((t) => t.start()));
await Promise.all(transports.map((t) => t.ready({ timeoutMs: 60_000 })));
const managers: LockManager[] = transports.map((t, id) =>
  createLockManager({ endpoint: t.endpoint, id, n, maxLiveNames: 2 * NAMES }),
);

async function phase(nameOf: (id: number, round: number) => string): Promise<number> {
  const t0 = performance.now();
  await Promise.all(
    managers.map(async (m, id) => {
      for (let r = 0; r < ROUNDS; r++) await m.request(nameOf(id, r), () => {});
    }),
  );
  return (n * ROUNDS) / ((performance.now() - t0) / 1000);
}

/** Reclaims until nothing is live (the last RELEASEs may still be on their way), then a full GC. */
async function reclaimAll(): Promise<number> {
  for (;;) {
    for (const m of managers) m.reclaimIdle();
    if (managers.every((m) => m.live === 0)) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  gc!();
  return process.memoryUsage().heapUsed;
}

await phase((id, r) => `warm-up-${r * n + id}`); // the code paths of new names warmed up too
const one = await phase(() => 'one');
const heap0 = await reclaimAll();
const kept0 = managers.reduce((s, m) => s + m.kept, 0);
const many = await phase((id, r) => `name-${r * n + id}`);
const heap1 = await reclaimAll();
const kept = managers.reduce((s, m) => s + m.kept, 0) - kept0;
console.log(`n = ${n} over mutual TLS (one process), ${n * ROUNDS} exclusive acquisitions per case`);
console.log(`one name:        ${one.toFixed(0)} acquisitions/s`);
console.log(`${NAMES} names:     ${many.toFixed(0)} acquisitions/s`);
console.log(`idle names kept: ${kept} (names × members that took part)`);
console.log(`memory per idle name and member: ${((heap1 - heap0) / kept).toFixed(0)} bytes`);
await Promise.all(managers.map((m) => m.close()));
await Promise.all(transports.map((t) => t.close()));
