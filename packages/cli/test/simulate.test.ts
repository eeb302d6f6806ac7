import { unsafeMutex } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import {
  EXIT,
  formatBenchMarkdown,
  formatSummary,
  resolveBench,
  resolveSimulation,
  runBench,
  runSimulation,
} from '../src/index.js';
import { benchCases } from '../src/bench.js';
import { exitCodeFor } from '../src/cli.js';

describe('runSimulation', () => {
  it('gcs, sequential, unit delays: exact counts within the papers’ bounds (Theorem 4)', async () => {
    const s = resolveSimulation({
      algorithm: 'gcs',
      n: 9,
      workload: 'sequential',
      rounds: 3,
      params: { l: 2, k: 5 },
    });
    const r = await runSimulation(s);
    expect(r.ok).toBe(true);
    expect(r.safetyViolations).toBe(0);
    expect([r.entries, r.exits]).toEqual([27, 27]);
    // grid(9): |Q| = 5; lmin + kmex pairs without Response2 = 2·(3·5 + 5·5)
    expect(r.messages.perPair).toEqual({ mean: 80, p99: 80, max: 80 });
    expect(r.bounds).toMatchObject({ messagesPerPair: 90, waitingTimeEntry: 9, waitingTimeExit: 9 });
    expect(r.boundsMet).toEqual({ messagesPerPair: true, waitingTimeEntry: true, waitingTimeExit: true });
    expect(r.waitingTime.entry.max).toBeLessThanOrEqual(9);
    expect(r.waitingTime.exit.max).toBeLessThanOrEqual(9);
    expect(r.messages.total).toBe(Object.values(r.messages.byType).reduce((a, b) => a + b, 0));
    expect(Object.keys(r.messages.byType)).toContain('lmin/mx REQUEST');
    expect(exitCodeFor(r)).toBe(EXIT.ok);
    expect(r.replay).toBe(
      'npx critsec simulate gcs --n 9 --l 2 --k 5 --coterie grid --rounds 3 --seed 1 --delay unit --workload sequential',
    );
  });

  it('is deterministic: the same seed gives the same summary (wall time aside)', async () => {
    const run = async () => {
      const s = resolveSimulation({
        algorithm: 'kmutex',
        n: 7,
        delay: 'exponential:2',
        rounds: 4,
        seed: 5,
        params: { k: 3 },
      });
      const { wallMs: _w, messagesPerSecond: _m, performance: _p, ...rest } = await runSimulation(s);
      return rest;
    };
    const a = await run();
    expect(a.ok).toBe(true);
    expect(a.boundsMet).toEqual({ messagesPerPair: null, waitingTimeEntry: null, waitingTimeExit: null });
    expect(await run()).toEqual(a);
  });

  it('reports a safety violation with the seed and the step to replay, exit code 1', async () => {
    const s = resolveSimulation({ algorithm: 'mutex', n: 4, rounds: 3, seed: 7 });
    const broken = { ...s, cluster: { ...s.cluster, factory: unsafeMutex() } };
    const r = await runSimulation(broken);
    expect(r.ok).toBe(false);
    expect(r.safetyViolations).toBeGreaterThan(0);
    expect(r.violation?.step).toBeGreaterThan(0);
    expect(exitCodeFor(r)).toBe(EXIT.failed);
    const text = formatSummary(r);
    expect(text).toContain(`SAFETY VIOLATION at state change ${r.violation?.step}`);
    expect(text).toContain(
      'replay with: npx critsec simulate mutex --n 4 --coterie grid --rounds 3 --seed 7',
    );
  });

  it('maps a bound not met under the sequential workload to exit code 3', async () => {
    const s = resolveSimulation({ algorithm: 'mutex', n: 9, rounds: 1, workload: 'sequential' });
    const r = await runSimulation(s);
    expect(exitCodeFor(r)).toBe(EXIT.ok);
    const tight = { ...r, boundsMet: { ...r.boundsMet, messagesPerPair: false } };
    expect(exitCodeFor(tight)).toBe(EXIT.boundNotMet);
    expect(formatSummary(tight)).toContain('NOT MET');
  });
});

describe('bench', () => {
  it('runs every case within the bounds and prints a markdown table', async () => {
    const s = resolveBench({
      n: '7',
      algorithms: 'ricart-agrawala,mutex,gcs',
      coteries: 'grid,projective-plane',
    });
    expect(benchCases(s).map((c) => `${c.algorithm}/${c.coterie}/${c.n}`)).toEqual([
      'ricart-agrawala/null/7',
      'mutex/grid/7',
      'gcs/grid/7',
      'mutex/projective-plane/7',
      'gcs/projective-plane/7',
    ]);
    const r = await runBench(s);
    expect(r.ok).toBe(true);
    const md = formatBenchMarkdown(r);
    const rows = md.split('\n').filter((l) => l.startsWith('| 7 |'));
    expect(rows).toHaveLength(5);
    // projective plane q = 2: |Q| = 3, Maekawa exactly 3·|Q| = 9 messages per CS
    expect(rows[3]).toContain('| 7 | mutex | projective-plane | 3 | 0, 1 | 9, 9 | 9 = 3\\|Q\\| |');
    for (const row of rows) expect(row.split(' | ').length).toBe(12);
  });
});
