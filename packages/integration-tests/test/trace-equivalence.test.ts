/*
 * Same behaviour, proven (issue 13): a fixed set of simulator runs — every algorithm the CLI
 * offers, two seeds, three delay models, faults below the session layer off and on, aborts on —
 * whose full JSON-lines traces (every send, delivery, timer and state change) and workload
 * records are hashed. The hashes in `fixtures/trace-hashes.json` were recorded on `main` before
 * the architecture refactor (commit ad7004f); a refactor that changes any execution by one byte
 * fails here.
 *
 * An intended change of behaviour: say why in the commit, then record the new hashes with
 * `CRITSEC_RECORD_TRACES=1 npx vitest run test/trace-equivalence.test.ts` (in this package). To
 * see where two versions differ, write the traces with `CRITSEC_TRACE_DIR=/tmp/x` on both and
 * `diff` them.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ClusterInput, resolveCluster } from '@critsec/cluster';
import { createCluster, runWorkload } from '@critsec/harness';
import { parseDelay } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';

const FIXTURE = new URL('./fixtures/trace-hashes.json', import.meta.url);

const CLUSTERS: Record<string, ClusterInput> = {
  'mutex-grid': { algorithm: 'mutex', n: 9, params: { coterie: 'grid' } },
  'mutex-majority': { algorithm: 'mutex', n: 5, params: { coterie: 'majority' } },
  'ricart-agrawala': { algorithm: 'ricart-agrawala', n: 5 },
  'mutin-maekawa': { algorithm: 'mutin', n: 9, params: { l: 3, coterie: 'grid' } },
  'mutin-ra': { algorithm: 'mutin', n: 5, params: { l: 2, mx: 'ricart-agrawala' } },
  kmutex: { algorithm: 'kmutex', n: 9, params: { k: 4, coterie: 'grid' } },
  gcs: { algorithm: 'gcs', n: 9, params: { l: 2, k: 5, coterie: 'grid' } },
  'gcs-tree': { algorithm: 'gcs', n: 7, params: { l: 1, k: 4, coterie: 'tree' } },
  'h-out-of-k': { algorithm: 'h-out-of-k', n: 8, params: { k: 3, arbiter: 'uniform' } },
  'h-out-of-k-cube': { algorithm: 'h-out-of-k', n: 8, params: { k: 2, arbiter: 'cube' } },
  'group-mutex-M': { algorithm: 'group-mutex', n: 9, params: { m: 3, variant: 'M' } },
  'group-mutex-S': { algorithm: 'group-mutex', n: 9, params: { m: 3, variant: 'S' } },
  lmutin: { algorithm: 'local-cs', params: { algorithm: 'lmutin', graph: 'ring:6', l: 1 } },
  lmutex: { algorithm: 'local-cs', params: { algorithm: 'lmutex', graph: 'grid:2x3', k: 2 } },
  lkcs: { algorithm: 'local-cs', params: { algorithm: 'lkcs', graph: 'complete:5', l: 1, k: 4 } },
};
const SEEDS = [1, 2];
const DELAYS = ['unit', 'uniform:0.5:3', 'exponential:1'];
const FAULTS = { off: undefined, on: { drop: 0.15, duplicate: 0.05 } } as const;

async function traceOf(name: string, seed: number, delay: string, faults: keyof typeof FAULTS) {
  const c = resolveCluster(CLUSTERS[name]!);
  const lines: string[] = [];
  const cluster = createCluster({
    factory: c.factory,
    spec: c.spec,
    initial: c.initial,
    seed,
    delay: parseDelay(delay),
    attribution: true,
    trace: (line) => lines.push(line),
    ...(FAULTS[faults] === undefined ? {} : { faults: FAULTS[faults] }),
  });
  const r = await runWorkload(cluster, {
    rounds: 3,
    abort: { probability: 0.2, within: 2 },
    ...(c.request === null ? {} : { request: c.request }),
  });
  await cluster.close();
  lines.push(JSON.stringify({ ok: r.ok, failure: r.failure, records: r.records, messages: r.messages }));
  return lines.join('\n');
}

const cases = Object.keys(CLUSTERS).flatMap((name) =>
  SEEDS.flatMap((seed) =>
    DELAYS.flatMap((delay) =>
      (Object.keys(FAULTS) as (keyof typeof FAULTS)[]).map((faults) => ({ name, seed, delay, faults })),
    ),
  ),
);
const key = (c: (typeof cases)[number]) => `${c.name} seed=${c.seed} delay=${c.delay} faults=${c.faults}`;

describe('simulator traces are byte-identical to the recorded ones', () => {
  const recording = process.env.CRITSEC_RECORD_TRACES === '1';
  const recorded: Record<string, string> = recording ? {} : JSON.parse(readFileSync(FIXTURE, 'utf8'));
  const dir = process.env.CRITSEC_TRACE_DIR;
  if (dir !== undefined) mkdirSync(dir, { recursive: true });

  it(`covers ${cases.length} runs`, () => {
    if (!recording) expect(Object.keys(recorded).sort()).toEqual(cases.map(key).sort());
  });

  for (const c of cases) {
    it(key(c), async () => {
      const trace = await traceOf(c.name, c.seed, c.delay, c.faults);
      if (dir !== undefined) writeFileSync(join(dir, `${key(c).replace(/[ =:]/g, '_')}.jsonl`), trace);
      const hash = `${createHash('sha256').update(trace).digest('hex')} ${trace.split('\n').length}`;
      if (recording) recorded[key(c)] = hash;
      else expect(hash, `trace of ${key(c)} changed`).toBe(recorded[key(c)]);
    });
  }

  if (recording) {
    it('records the hashes', () => {
      writeFileSync(FIXTURE, `${JSON.stringify(recorded, Object.keys(recorded).sort(), 2)}\n`);
    });
  }
});
