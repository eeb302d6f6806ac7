/**
 * The extreme-value property check has teeth: a Lamport clock that is raised by received stamps
 * and incremented without saturating (the issue-15 bug, on the reference central mutex) is caught
 * with its seed, type, field and value; the saturating `tick`/`witness` pass; a liveness check
 * on a field that names a grant catches the lost grant when that field is declared a clock.
 */
import { type CSFactory, type Endpoint, type Message, mutexSpec } from '@critsec/core';
import { defineProtocol, tick, timestampSchema, witness } from '@critsec/transport';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { centralMutex, extremeValueCheck } from '../src/index.js';

/** Every message of the central mutex, with the Lamport stamp `ts` the wrapper adds. */
const clockedProtocol = defineProtocol(
  'clocked-central',
  v.object({ type: v.string(), req: timestampSchema, ts: timestampSchema }),
);

/** The central mutex with a Lamport clock on every message: `step` on send, `join` on receipt. */
function clocked(step: (c: number) => number, join: (c: number, ts: number) => number): CSFactory {
  const inner = centralMutex();
  return (ctx) => {
    let clock = 0;
    const ep = ctx.endpoint;
    const endpoint: Endpoint = {
      self: ep.self,
      peers: ep.peers,
      path: ep.path,
      send: (to, msg) => {
        clock = step(clock);
        ep.send(to, { ...msg, ts: clock });
      },
      onMessage: (fn) =>
        ep.onMessage((from, msg) => {
          const { ts, ...rest } = msg as Message & { ts: number };
          clock = join(clock, ts);
          fn(from, rest as Message);
        }),
      channel: (name) => ep.channel(name),
    };
    return inner({ ...ctx, endpoint });
  };
}

const options = {
  spec: mutexSpec(3),
  protocols: { '': clockedProtocol },
  seeds: [1, 2],
  rounds: 2,
} as const;

describe('extremeValueCheck', () => {
  it('catches a clock that leaves the validated range after a forged stamp (seed, type, field, value named)', async () => {
    const report = await extremeValueCheck({
      ...options,
      label: 'unsaturated',
      factory: clocked(
        (c) => c + 1,
        (c, ts) => Math.max(c, ts),
      ),
      classify: (s) => (s.field === 'ts' ? 'clock' : 'tag'),
    });
    expect(report.failures.length).toBeGreaterThan(0);
    expect(report.failures[0]).toMatch(
      /^unsaturated: seed \d, send #\d+ P\d → P\d on '': (REQUEST|GRANT|RELEASE)\.ts = 900719925474099\d \(clock\): P\d → P\d sent invalid/,
    );
    expect(report.details.every((d) => d.field === 'ts' && d.value >= Number.MAX_SAFE_INTEGER - 1)).toBe(
      true,
    );
  });

  it('passes the saturating tick/witness, every type × field × value, and reports what it covered', async () => {
    const report = await extremeValueCheck({
      ...options,
      label: 'saturating',
      factory: clocked(tick, witness),
      classify: (s) => (s.field === 'ts' ? 'clock' : 'tag'),
    });
    expect(report.failures).toEqual([]);
    expect(report.types['']).toEqual(['GRANT', 'RELEASE', 'REQUEST']);
    expect(Object.keys(report.perSite).sort()).toEqual([
      'GRANT.req',
      'GRANT.ts*',
      'RELEASE.req',
      'RELEASE.ts*',
      'REQUEST.req',
      'REQUEST.ts*',
    ]);
    // 0, 1, n − 1 = 2, n = 3, CLOCK_MAX − 1, CLOCK_MAX, the real value ± 1, minus the real value
    expect(report.runs).toBeGreaterThan(2 * 3 * 2 * 5);
  });

  it('a field that names a grant, declared a clock, fails the liveness check (the real grant is lost)', async () => {
    const report = await extremeValueCheck({
      ...options,
      label: 'grant-as-clock',
      factory: clocked(tick, witness),
      classify: () => 'clock',
    });
    expect(
      report.details.some((d) => d.type === 'GRANT' && d.field === 'req' && /did not finish/.test(d.why)),
    ).toBe(true);
  });

  it('refuses to run with a channel that has no validator', async () => {
    await expect(
      extremeValueCheck({ ...options, protocols: {}, label: 'unmapped', factory: clocked(tick, witness) }),
    ).rejects.toThrow(/no validator for channel ''/);
  });
});
