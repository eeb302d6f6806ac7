/**
 * Issue 27 §3, long suite for MUTIN's own messages: the scene of `no-wedge-mutin.test.ts`
 * (majority(5), a Query, Acquire or Release in P4's name to P0 and P1) over seeds 1–2,000 for each
 * forged message, with l, the instant and the delay model drawn from the seed (l ∈ {2, 4}, t in
 * 0..79, unit or uniform(0.1, 2) delays): at least l InCS throughout, every process completes its
 * rounds. 10,000 runs, budgeted by seeds only.
 */
import { globalSpec } from '@critsec/core';
import { majority } from '@critsec/coteries';
import { createCluster, runWorkload } from '@critsec/harness';
import { uniformDelay } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { type MutinProtocolMessage, mutin } from '../src/index.js';

const FORGED: readonly MutinProtocolMessage[] = [
  { type: 'Query', reqCnt: 1_000_000 },
  { type: 'Query', reqCnt: 0 },
  { type: 'Query', reqCnt: 2 },
  { type: 'Acquire' },
  { type: 'Release' },
];

describe("MUTIN: a message in a legitimate sender's name never wedges it (issue 27 §3, long)", () => {
  for (const msg of FORGED) {
    it(`${JSON.stringify(msg)} from P4 to P0 and P1, seeds 1–2,000: 0 stuck, 0 unsafe`, async () => {
      const bad: string[] = [];
      for (let seed = 1; seed <= 2000; seed++) {
        const l = seed % 2 === 0 ? 4 : 2;
        const t = (seed * 7) % 80;
        const delay = seed % 4 < 2 ? undefined : uniformDelay(0.1, 2);
        const cluster = createCluster({
          factory: mutin({ l, coterie: majority(5) }),
          spec: globalSpec(l, 5, 5),
          seed,
          delay,
        });
        cluster.net.schedule(t, () => {
          for (const to of [0, 1]) cluster.net.endpoint(4).send(to, msg);
        });
        const r = await runWorkload(cluster, { rounds: 3 });
        await cluster.close();
        if (!r.ok || cluster.errors.length > 0)
          bad.push(`seed ${seed} (l ${l}, t ${t}): ${r.failure ?? cluster.errors[0]?.error.message}`);
      }
      expect(bad).toEqual([]);
    });
  }
});
