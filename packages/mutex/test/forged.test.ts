/**
 * Issue 15, "one forged message deadlocks the cluster": a schema-valid message with an extreme
 * clock must not put its receiver in a state whose own messages fail validation. First the
 * issue's exact attack (a forged `ts = 2^53 − 1` from a real peer), then the extreme-value
 * property check of `@critsec/testing` over every message type and numeric field.
 */
import { type CSFactory, mutexSpec } from '@critsec/core';
import { grid, majority } from '@critsec/coteries';
import { createCluster, runWorkload } from '@critsec/harness';
import { extremeValueCheck, type ForgedSite } from '@critsec/testing';
import { CLOCK_MAX } from '@critsec/transport';
import { describe, expect, it } from 'vitest';
import { maekawa, maekawaProtocol, ricartAgrawala, ricartAgrawalaProtocol } from '../src/index.js';

/** Sends `msg` from P`from` to P0 before the workload, then requires the workload to complete. */
async function forgedThenWorkload(factory: CSFactory, n: number, from: number, msg: object, seed = 7) {
  const cluster = createCluster({ factory, spec: mutexSpec(n), seed });
  cluster.net.endpoint(from).send(0, msg as never);
  const r = await runWorkload(cluster, { rounds: 3 });
  await cluster.close();
  return { r, errors: cluster.errors.map((e) => `P${e.process}: ${e.error.message}`) };
}

describe('a forged clock at 2^53 − 1 (issue 15)', () => {
  for (const type of ['RELEASE', 'LOCKED', 'REQUEST'] as const) {
    it(`Maekawa grid(9): a ${type} from a real peer with ts = CLOCK_MAX leaves the cluster live, nothing dropped`, async () => {
      // req 0 is no current request: the message is stale for every role and only moves the clock
      const { r, errors } = await forgedThenWorkload(maekawa({ coterie: grid(9) }), 9, 1, {
        type,
        req: type === 'REQUEST' ? 1 : 0,
        ts: CLOCK_MAX,
      });
      expect(errors).toEqual([]);
      expect(r.failure).toBeNull();
      expect(r.ok).toBe(true);
    });
  }

  it('Ricart–Agrawala n = 5: a REQUEST with ts = CLOCK_MAX (a forged request: its stamp is its tag) — nothing dropped, mutual exclusion kept at the clock ceiling', async () => {
    // the forged REQUEST impersonates P1's request, so progress may be lost (a REPLY or deferral
    // for a request P1 never made); what must hold: every later message valid, never two InCS
    for (let seed = 1; seed <= 40; seed++) {
      const { r, errors } = await forgedThenWorkload(
        ricartAgrawala(),
        5,
        1,
        { type: 'REQUEST', ts: CLOCK_MAX },
        seed,
      );
      expect(errors).toEqual([]);
      expect(r.violation, `seed ${seed}`).toBeNull();
    }
  });
});

/** Maekawa's `ts` is a Lamport clock only; `req` names a request (a tag). */
const maekawaClock = (s: ForgedSite) => (s.field === 'ts' ? 'clock' : 'tag');

describe('extreme-value property check', () => {
  it('Maekawa majority(5) with fencing (issue 28): every type × field × extreme value keeps the rule', async () => {
    const report = await extremeValueCheck({
      label: 'maekawa majority(5), fencing',
      factory: maekawa({ coterie: majority(5), fencing: true }),
      spec: mutexSpec(5),
      protocols: { '': maekawaProtocol },
      classify: maekawaClock,
      seeds: [1],
      rounds: 2,
    });
    expect(Object.keys(report.perSite)).toEqual(expect.arrayContaining(['FENCE_LOCKED.hs', 'CONFIRM.token']));
    expect(report.failures).toEqual([]);
  });

  for (const [label, coterie] of [
    ['grid(9)', grid(9)],
    ['majority(5)', majority(5)],
  ] as const) {
    it(`Maekawa ${label}: every type × field × extreme value keeps the rule`, async () => {
      const report = await extremeValueCheck({
        label: `maekawa ${label}`,
        factory: maekawa({ coterie }),
        spec: mutexSpec(coterie.n),
        protocols: { '': maekawaProtocol },
        classify: maekawaClock,
        seeds: [1],
        rounds: 2,
      });
      console.info(`maekawa ${label}: ${report.runs} forged runs`, report.perSite);
      expect(report.failures).toEqual([]);
      expect(report.types['']).toEqual(['FAILED', 'INQUIRE', 'LOCKED', 'RELEASE', 'RELINQUISH', 'REQUEST']);
    });
  }

  it('Ricart–Agrawala n = 5: every type × field × extreme value keeps the rule', async () => {
    const report = await extremeValueCheck({
      label: 'ricart-agrawala',
      factory: ricartAgrawala(),
      spec: mutexSpec(5),
      protocols: { '': ricartAgrawalaProtocol },
      seeds: [1],
      rounds: 2,
    });
    console.info(`ricart-agrawala: ${report.runs} forged runs`, report.perSite);
    expect(report.failures).toEqual([]);
    expect(report.types['']).toEqual(['REPLY', 'REQUEST']);
  });
});
