/**
 * `critsec cluster` for the algorithm families beyond the global one, as real OS processes over
 * TCP/TLS (the long suite: three clusters of 5–6 processes; `cluster.test.ts` keeps the gcs run
 * and the sequential exact-count run of Maekawa in `npm test`; the h-out-of-k one is here).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSharedLog } from '@critsec/cluster';
import { afterAll, describe, expect, it } from 'vitest';
import { runCluster } from '../src/index.js';
import { resolveClusterRun } from '@critsec/cluster';

const tmp = mkdtempSync(join(tmpdir(), 'critsec-cluster-families-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('critsec cluster: h-out-of-k, group mutex and the local CS over TCP/TLS', () => {
  // the issues' commands: h-out-of-k (units drawn per entry, logged, Σ checked), group mutex
  // (groups drawn per entry, two groups never certainly InCS together), the local CS (every
  // closed neighbourhood checked)
  for (const input of [
    { algorithm: 'h-out-of-k', n: 5, params: { k: 2 } },
    { algorithm: 'group-mutex', n: 6, params: { m: 2 } },
    { algorithm: 'local-cs', params: { algorithm: 'lmutin', graph: 'ring:6', l: 1 } },
  ]) {
    it(`${input.algorithm} over TCP/TLS: every round completes, the shared-log check of its problem finds nothing`, async () => {
      const dir = join(tmp, `run-${input.algorithm}`);
      const summary = await runCluster(resolveClusterRun({ ...input, rounds: 4, dir }));
      expect(summary.failure).toBeNull();
      expect(summary.ok).toBe(true);
      expect(summary.safetyViolations).toBe(0);
      expect([summary.entries, summary.exits]).toEqual([4 * summary.n, 4 * summary.n]);
      const config = JSON.parse(readFileSync(join(dir, 'cluster.json'), 'utf8')) as {
        spec: { kind: string };
        bounds?: unknown;
      };
      expect(config.bounds).toBeUndefined();
      expect(config.spec.kind).toBe(
        summary.problem.startsWith('local')
          ? 'local'
          : input.algorithm === 'h-out-of-k'
            ? 'h-out-of-k'
            : 'group',
      );
      const { records } = readSharedLog(join(dir, 'shared.log'));
      const called = records.filter((r) => r.e === 'entry-called');
      if (input.algorithm === 'local-cs') expect(called.every((r) => r.q === undefined)).toBe(true);
      else expect(called.every((r) => typeof r.q === 'number')).toBe(true);
    });
  }
});

describe('critsec cluster: exact message counts over TCP/TLS', () => {
  it('h-out-of-k, sequential over TCP: exactly 3·|q| messages per request, as in the simulator', async () => {
    const s = resolveClusterRun({
      algorithm: 'h-out-of-k',
      n: 4,
      rounds: 2,
      workload: 'sequential',
      params: { k: 2, h: 2 },
    });
    const summary = await runCluster(s);
    expect(summary.ok).toBe(true);
    const q = summary.quorumSize!.max;
    expect(summary.messages.perPair.max).toBeLessThanOrEqual(3 * q);
    expect(summary.boundsMet.messagesPerPair).toBe(true);
  });
});
