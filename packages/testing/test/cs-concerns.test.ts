import { mutexSpec } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import {
  abortTests,
  closeTests,
  complianceContext,
  conventionTests,
  coverageTests,
  csCompliance,
  type CSComplianceSetup,
  defaultDelays,
  determinismTests,
  livenessTests,
  safetyTests,
  type TestFn,
} from '../src/cs.js';
import { centralMutex, unsafeMutex } from '../src/index.js';

/** The titles (and timeouts) a registration registers, in order, without running anything. */
function titles(register: (it: TestFn) => void): { names: string[]; timeouts: (number | undefined)[] } {
  const names: string[] = [];
  const timeouts: (number | undefined)[] = [];
  register((name, _fn, timeout) => {
    names.push(name);
    timeouts.push(timeout);
  });
  return { names, timeouts };
}

const base: Omit<CSComplianceSetup, 'it'> = {
  name: 'central-3',
  factory: centralMutex(),
  spec: mutexSpec(3),
  seeds: 40,
};

describe('csCompliance is the concerns composed behind one setup object', () => {
  it('registers the same titles, in the same order, as every package has always seen', () => {
    const { names, timeouts } = titles((it) => csCompliance({ ...base, it, coverage: ['x:y'] }));
    const t = 'central-3 ((0,1)-CS over 3 processes)';
    expect(names).toEqual([
      `${t}: CSMIC violations reject with CSMICError and send nothing`,
      `${t}: safety and liveness over 40 seeds, delay unit`,
      `${t}: safety and liveness over 40 seeds, delay uniform:0.1:2`,
      `${t}: safety and liveness over 40 seeds, delay exponential:1`,
      `${t}: sequential (uncontended) workload completes every invocation alone`,
      `${t}: determinism — the same seed gives the same trace`,
      `${t}: aborted entries leave the cluster safe and live`,
      `${t}: close() settles calls in flight; later calls reject; nothing is sent after`,
      `${t}: every rare path was taken across the seed set (x:y)`,
    ]);
    expect(new Set(timeouts)).toEqual(new Set([undefined])); // no deadline of its own: the runner's applies
  });

  it('without abort and coverage those two tests are not registered; delays and timeout are the setup’s', () => {
    const { names, timeouts } = titles((it) =>
      csCompliance({ ...base, it, abort: false, coverage: [], delays: [defaultDelays[2]!], timeout: 9 }),
    );
    expect(names.map((n) => n.slice(n.indexOf(': ') + 2))).toEqual([
      'CSMIC violations reject with CSMICError and send nothing',
      'safety and liveness over 40 seeds, delay exponential:1',
      'sequential (uncontended) workload completes every invocation alone',
      'determinism — the same seed gives the same trace',
      'close() settles calls in flight; later calls reject; nothing is sent after',
    ]);
    expect(new Set(timeouts)).toEqual(new Set([9]));
  });

  it('the registrars composed by hand register exactly what csCompliance does', () => {
    const setup = { ...base, coverage: ['x:y'] };
    const whole = titles((it) => csCompliance({ ...setup, it }));
    const byHand = titles((it) => {
      const ctx = complianceContext({ ...setup, it });
      for (const register of [
        conventionTests,
        safetyTests,
        livenessTests,
        determinismTests,
        abortTests,
        closeTests,
        coverageTests,
      ])
        register(ctx);
    });
    expect(byHand).toEqual(whole);
  });

  it('complianceContext resolves the defaults once', () => {
    const ctx = complianceContext({ ...base, seeds: undefined, it: () => {} });
    expect(ctx).toMatchObject({
      seeds: 1000,
      first: 1,
      rounds: 2,
      timeout: undefined,
      delays: defaultDelays,
    });
    expect(ctx.title).toBe('central-3 ((0,1)-CS over 3 processes)');
    expect(ctx.reached.collector).toBeUndefined();
  });
});

describe('a concern registered alone keeps its teeth', () => {
  const run = async (register: (it: TestFn) => void): Promise<unknown[]> => {
    const fns: (() => Promise<void>)[] = [];
    register((_name, fn) => fns.push(fn));
    const errors: unknown[] = [];
    for (const fn of fns) await fn().catch((e: unknown) => errors.push(e));
    return errors;
  };

  it('the coverage test fails when no safety test ran before it (no collector)', async () => {
    const errors = await run((it) => coverageTests(complianceContext({ ...base, it, coverage: ['x:y'] })));
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toMatch(/the safety tests did not run before the coverage check/);
  });

  it('safety alone catches the unsafe object; liveness alone passes it (its entries complete)', async () => {
    const setup = { ...base, factory: unsafeMutex(), seeds: 3, traceDir: '.traces/selftest' };
    let started = false;
    const safety = await run((it) => {
      const ctx = complianceContext({ ...setup, it });
      safetyTests(ctx);
      it('(probe)', async () => {
        started = ctx.reached.collector !== undefined;
        ctx.reached.collector?.stop();
      });
    });
    expect(safety).toHaveLength(3);
    for (const e of safety) expect(String(e)).toMatch(/safety violated/);
    expect(started).toBe(true);
    const liveness = await run((it) => livenessTests(complianceContext({ ...setup, it })));
    expect(liveness).toEqual([]);
  });
});
