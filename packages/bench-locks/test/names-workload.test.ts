import { describe, expect, it } from 'vitest';
import { distinctNames, type NamesPhase, runNamedClients } from '../src/names-workload.js';

/** 10 clients, 20 names, 6 rounds each: 60 acquisitions, three sweeps. */
const phase: NamesPhase = { prefix: 'n', names: 20, rounds: 6, seed: 7, clients: 10 };

/** Per client, the names it took, in order (clients run one after another: the sequence does not depend on timing). */
async function taken(p: NamesPhase): Promise<string[][]> {
  const names: string[][] = [];
  for (let g = 0; g < p.clients; g++) {
    const mine: string[] = [];
    await runNamedClients(p, g, 1, async (name) => {
      mine.push(name);
    });
    names.push(mine);
  }
  return names;
}

describe('the sweeps of the names scenario', () => {
  it('use every name once per sweep, never the same name for two clients at one step', async () => {
    const byClient = await taken(phase);
    const uses = new Map<string, number>();
    for (const names of byClient) for (const n of names) uses.set(n, (uses.get(n) ?? 0) + 1);
    expect(uses.size).toBe(20);
    expect([...uses.values()].every((u) => u === 3)).toBe(true);
    expect(distinctNames(phase)).toBe(20);
    for (let r = 0; r < phase.rounds; r++) expect(new Set(byClient.map((names) => names[r])).size).toBe(10);
  });

  it('give a name to different clients from one sweep to the next (not always client k mod C)', async () => {
    const byClient = await taken(phase);
    const takers = new Map<string, Set<number>>();
    byClient.forEach((names, g) => {
      for (const n of names) takers.set(n, (takers.get(n) ?? new Set()).add(g));
    });
    const shared = [...takers.values()].filter((s) => s.size > 1).length;
    expect(shared).toBeGreaterThan(10);
  });

  it('are the same sequence on every run (every system sees the same names in the same order)', async () => {
    expect(await taken(phase)).toEqual(await taken(phase));
    expect(await taken({ ...phase, names: 1, prefix: 'one-' })).toEqual(
      Array.from({ length: 10 }, () => Array.from({ length: 6 }, () => 'one-0')),
    );
  });
});
