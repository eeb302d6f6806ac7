/**
 * The algorithm families beyond the global (l,k)-CS, as the CLI runs them: h-out-of-k
 * (Manabe & Tajima), group mutual exclusion (Joung 2003) and the local CS (Kamei & Kakugawa
 * 2017) — option validation, exact uncontended counts against the papers' bounds, requests drawn
 * per entry, and replay commands that reproduce the run.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationError } from '@critsec/core';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveCluster } from '@critsec/cluster';
import { clusterInput } from '../src/options.js';
import {
  EXIT,
  formatFamilyBench,
  resolveSimulation,
  runFamilyBench,
  runSimulation,
  type SimulateInput,
} from '../src/index.js';
import { exitCodeFor } from '../src/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'critsec-families-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function message(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigurationError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigurationError');
}

/** Runs a simulation from its settings, then again from the words of its replay command. */
async function runAndReplay(input: SimulateInput) {
  const s = resolveSimulation(input);
  const r = await runSimulation(s);
  const words = r.replay.replace(/^npx critsec simulate \S+ /, '').split(' ');
  const flags: Record<string, string> = {};
  for (let i = 0; i < words.length; i += 2) flags[words[i]!.slice(2)] = words[i + 1]!;
  // the replay command's words, read the way the command line reads them
  const again = await runSimulation(resolveSimulation(await clusterInput(s.cluster.algorithm, flags, '25')));
  return { r, again };
}

describe('h-out-of-k', () => {
  it('sequential, unit delays: exactly 3·|q_{h,k}| messages per request, entry 2, exit 0 (Sec. 4.3)', async () => {
    const { r, again } = await runAndReplay({
      algorithm: 'h-out-of-k',
      n: 27,
      workload: 'sequential',
      rounds: 2,
      params: { k: 2, arbiter: 'cube', h: 1 },
    });
    expect(r.ok).toBe(true);
    expect(r.problem).toBe('h-out-of-2 mutual exclusion over 27 processes');
    expect(r.parameters).toEqual({ k: 2, arbiter: 'cube', h: 1 });
    const q = r.quorumSize!.max;
    expect(r.quorumSize!.min).toBe(q);
    expect(r.messages.perPair).toEqual({ mean: 3 * q, p99: 3 * q, max: 3 * q });
    expect(r.boundsMet).toEqual({ messagesPerPair: true, waitingTimeEntry: true, waitingTimeExit: true });
    expect([r.waitingTime.entry.max, r.waitingTime.exit.max]).toEqual([2, 0]);
    expect(exitCodeFor(r)).toBe(EXIT.ok);
    expect(again.messages).toEqual(r.messages);
  });

  it('random h per entry under contention: safe, every unit accounted for, more than one holder at once', async () => {
    const r = await runSimulation(
      resolveSimulation({ algorithm: 'h-out-of-k', n: 9, rounds: 10, params: { k: 3 } }),
    );
    expect(r.ok).toBe(true);
    expect(r.request).toBe('h uniform in 1..3 per entry');
    expect(r.concurrency.max).toBeGreaterThan(1);
    expect(r.concurrency.max).toBeLessThanOrEqual(3);
  });

  it('validates h, the arbiter, --l and the initial configuration', () => {
    expect(
      message(() => resolveCluster({ algorithm: 'h-out-of-k', n: 9, params: { k: 3, h: 4 } })),
    ).toContain('--h must be an integer in 1..3');
    expect(message(() => resolveCluster({ algorithm: 'h-out-of-k', n: 9, params: { arbiter: 'hex' } }))).toBe(
      "unknown arbiter 'hex'; accepted: uniform, cube, uniform-k, cube-k",
    );
    expect(message(() => resolveCluster({ algorithm: 'h-out-of-k', n: 9, params: { l: 1 } }))).toContain(
      '--l must be 0',
    );
    expect(message(() => resolveCluster({ algorithm: 'h-out-of-k', n: 9, params: { init: '0' } }))).toContain(
      'starts every process OutCS',
    );
    expect(message(() => resolveCluster({ algorithm: 'h-out-of-k', n: 3, params: { k: 4 } }))).toContain(
      '--k must be',
    );
  });
});

describe('group-mutex', () => {
  it('Maekawa_M, sequential: 3c messages per entry, delay 2 (Theorems 5–6)', async () => {
    const { r, again } = await runAndReplay({
      algorithm: 'group-mutex',
      n: 16,
      workload: 'sequential',
      rounds: 2,
      params: { m: 2, variant: 'M' },
    });
    expect(r.ok).toBe(true);
    const c = r.quorumSize!.max;
    expect(r.messages.perPair.max).toBe(3 * c);
    expect(r.bounds).toMatchObject({ messagesPerPair: 3 * c, waitingTimeEntry: 2 });
    expect(r.boundsMet).toEqual({ messagesPerPair: true, waitingTimeEntry: true, waitingTimeExit: true });
    expect(again.messages).toEqual(r.messages);
  });

  it('Maekawa_S, sequential: 2c + 1 messages and delay c + 1 (Theorem 9); T_m of a grid', async () => {
    const r = await runSimulation(
      resolveSimulation({
        algorithm: 'group-mutex',
        n: 9,
        workload: 'sequential',
        rounds: 2,
        params: { m: 3, variant: 'S', system: 'grid' },
      }),
    );
    expect(r.ok).toBe(true);
    const c = r.quorumSize!.max;
    expect(r.messages.perPair.max).toBe(2 * c + 1);
    expect(r.waitingTime.entry.max).toBe(c + 1);
    expect(exitCodeFor(r)).toBe(EXIT.ok);
  });

  it('concurrent entering: processes of one group share the CS (most InCS at once > 1)', async () => {
    const r = await runSimulation(
      resolveSimulation({ algorithm: 'group-mutex', n: 9, rounds: 10, params: { m: 2 } }),
    );
    expect(r.ok).toBe(true);
    expect(r.safetyViolations).toBe(0);
    expect(r.concurrency.max).toBeGreaterThan(1);
  });

  it('validates m, the variant, the system and bounds that do not apply', () => {
    expect(message(() => resolveCluster({ algorithm: 'group-mutex', n: 9, params: { m: 1 } }))).toContain(
      '--m must be at least 2 for the surficial system',
    );
    expect(message(() => resolveCluster({ algorithm: 'group-mutex', n: 9, params: { variant: 'X' } }))).toBe(
      "unknown variant 'X'; accepted: M, S",
    );
    expect(
      message(() => resolveCluster({ algorithm: 'group-mutex', n: 9, params: { system: 'wall' } })),
    ).toContain("unknown system 'wall'");
    expect(message(() => resolveCluster({ algorithm: 'group-mutex', n: 9, params: { k: 2 } }))).toContain(
      'no --l or --k',
    );
  });
});

describe('local-cs', () => {
  it('lmutin on a ring, sequential: exactly 3(|N_i|+1) messages per pair (Lemma 3)', async () => {
    const { r, again } = await runAndReplay({
      algorithm: 'local-cs',
      workload: 'sequential',
      rounds: 2,
      params: { algorithm: 'lmutin', graph: 'ring:8', l: 1 },
    });
    expect(r.ok).toBe(true);
    expect(r.n).toBe(8);
    expect(r.messages.perPair).toEqual({ mean: 9, p99: 9, max: 9 });
    expect(r.boundsMet.messagesPerPair).toBe(true);
    expect(again.messages).toEqual(r.messages);
  });

  it('lmutex on a graph file with per-process bounds, concurrent: safe and live', async () => {
    const graph = join(tmp, 'path.json');
    writeFileSync(
      graph,
      JSON.stringify({
        n: 4,
        edges: [
          [0, 1],
          [1, 2],
          [2, 3],
        ],
      }),
    );
    const bounds = join(tmp, 'bounds.json');
    writeFileSync(bounds, JSON.stringify({ l: [0, 0, 0, 0], k: [1, 2, 2, 1] }));
    const r = await runSimulation(
      resolveSimulation({
        algorithm: 'local-cs',
        rounds: 5,
        params: { algorithm: 'lmutex', graph, bounds: bounds },
      }),
    );
    expect(r.ok).toBe(true);
    expect(r.parameters).toEqual({ algorithm: 'lmutex', graph, bounds });
    expect(r.replay).toContain(`--bounds ${bounds}`);
  });

  it('lkcs, sequential: 6(|N_i|+1) per pair, moving within its tightened bounds (L_i, K_i)', async () => {
    const r = await runSimulation(
      resolveSimulation({
        algorithm: 'local-cs',
        workload: 'sequential',
        rounds: 3,
        params: { algorithm: 'lkcs', graph: 'complete:6', l: 1, k: 5 },
      }),
    );
    expect(r.failure).toBeNull();
    expect(r.messages.perPair).toEqual({ mean: 36, p99: 36, max: 36 });
    expect(r.parameters).toMatchObject({ algorithm: 'lkcs', leader: 0 });
  });

  it('validates the graph, n, the bounds and the leader', () => {
    expect(
      message(() => resolveCluster({ algorithm: 'local-cs', params: { graph: 'hexagon:3' } })),
    ).toContain('graph');
    expect(
      message(() => resolveCluster({ algorithm: 'local-cs', n: 7, params: { graph: 'ring:6' } })),
    ).toContain('has 6 processes');
    expect(
      message(() => resolveCluster({ algorithm: 'local-cs', params: { graph: 'ring:6', k: 2 } })),
    ).toContain('lmutin solves the (l_i, |N_i|+1)-CS');
    expect(
      message(() =>
        resolveCluster({ algorithm: 'local-cs', params: { algorithm: 'lmutex', graph: 'ring:6', l: 1 } }),
      ),
    ).toContain('lmutex solves the (0, k_i)-CS');
    expect(
      message(() =>
        resolveCluster({ algorithm: 'local-cs', params: { algorithm: 'lkcs', graph: 'ring:6', l: 1, k: 3 } }),
      ),
    ).toMatch(/lead|leader|N_LDR/);
    const bad = join(tmp, 'bad-bounds.json');
    writeFileSync(bad, JSON.stringify({ l: [0], k: [1] }));
    expect(
      message(() => resolveCluster({ algorithm: 'local-cs', params: { graph: 'ring:6', bounds: bad } })),
    ).toContain('with 6 non-negative integers each');
    expect(
      message(() =>
        resolveCluster({ algorithm: 'local-cs', params: { graph: 'ring:6', l: 1, init: 'none' } }),
      ),
    ).toContain('not a safe initial configuration');
  });
});

describe('critsec bench for the other families', () => {
  it('h-out-of-k: (h,k)-arbiter quorums never larger than the k-arbiter of the same construction', async () => {
    const b = await runFamilyBench('h-out-of-k', { sizes: [27, 64] });
    expect(b.ok).toBe(true);
    expect(b.rows).toHaveLength(2 * 4 * 3);
    const largest = (n: number, arbiter: string, h: number) =>
      Number(
        String(b.rows.find((r) => r[0] === n && r[1] === arbiter && r[2] === h)![3])
          .split('–')
          .at(-1),
      );
    for (const n of [27, 64]) {
      for (let h = 1; h <= 3; h++) {
        expect(largest(n, 'uniform', h)).toBeLessThanOrEqual(largest(n, 'uniform-k', h));
        expect(largest(n, 'cube', h)).toBeLessThanOrEqual(largest(n, 'cube-k', h));
      }
    }
    expect(formatFamilyBench(b)).toContain('| 64 | cube | 3 |');
  });

  it('group-mutex: the surficial system has smaller quorums than T_m(grid), every bound met', async () => {
    const b = await runFamilyBench('group-mutex', { sizes: [16, 27] });
    expect(b.ok).toBe(true);
    expect(b.rows.map((r) => r[2])).toEqual([
      'surficial',
      'T_m(grid)',
      'T_m(projective-plane)',
      'surficial',
      'T_m(grid)',
      'T_m(projective-plane)',
    ]);
    for (const i of [0, 3]) expect(Number(b.rows[i]![3])).toBeLessThan(Number(b.rows[i + 1]![3]));
  });

  it('local-cs: every pair within Lemma 3 / 6 sequentially, LMUTIN and LMUTEX within the worst case', async () => {
    const b = await runFamilyBench('local-cs');
    expect(b.failures).toEqual([]);
    // sequential max equals the best-case bound on every row (exact counts)
    for (const r of b.rows) expect(Number(String(r[4]).split(', ')[1])).toBe(r[5]);
  });
});
