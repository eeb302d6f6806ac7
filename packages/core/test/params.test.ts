import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../src/index.js';
import { grantParamValues, parseGrantParams, parseInit, parseInteger } from '../src/kit.js';

function message(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigurationError);
    const m = (err as Error).message;
    expect(m).not.toContain('\n');
    return m;
  }
  throw new Error('expected a ConfigurationError');
}

describe('parseInit / parseInteger', () => {
  it('reads every documented form', () => {
    const inCS = (t: string) => parseInit(t, 5, 2).flatMap((s, i) => (s === 'InCS' ? [i] : []));
    expect(inCS('default')).toEqual([0, 1]);
    expect(inCS('none')).toEqual([]);
    expect(inCS('all')).toEqual([0, 1, 2, 3, 4]);
    expect(inCS('first:3')).toEqual([0, 1, 2]);
    expect(inCS('4,1')).toEqual([1, 4]);
    expect(message(() => parseInit('7', 5, 0))).toBe('--init: process 7 is out of range; processes are 0..4');
    expect(message(() => parseInit('first:9', 5, 0))).toContain('only n = 5');
    expect(message(() => parseInit('P1', 5, 0))).toContain('accepted: default, none, all, first:M');
  });

  it('accepts integers only, within range', () => {
    expect(parseInteger('n', '12', 1)).toBe(12);
    expect(parseInteger('n', 12, 1)).toBe(12);
    expect(message(() => parseInteger('port', '70000', 1, 65535))).toBe(
      "--port must be an integer in 1..65535, got '70000'",
    );
    expect(message(() => parseInteger('n', '1e3', 1))).toContain("got '1e3'");
    expect(message(() => parseInteger('n', '', 1))).toContain("got ''");
  });
});

describe('parseGrantParams / grantParamValues (issue 28: fencing, ttl, driftMargin)', () => {
  it('parses what is given, leaves out the rest, and reads back as given', () => {
    expect(parseGrantParams({})).toEqual({});
    const g = parseGrantParams({ fencing: 'false', ttl: '12', driftMargin: 1.5 });
    expect(g).toEqual({ fencing: false, ttl: 12, driftMargin: 1.5 });
    expect(grantParamValues(g)).toEqual({ fencing: 'false', ttl: 12, driftMargin: 1.5 });
  });

  it('refuses a fencing that is not true/false and a negative or non-numeric time', () => {
    expect(() => parseGrantParams({ fencing: 'yes' })).toThrow(/--fencing must be true or false, got 'yes'/);
    expect(() => parseGrantParams({ ttl: -1 })).toThrow(ConfigurationError);
    expect(() => parseGrantParams({ driftMargin: 'x' })).toThrow(/--driftMargin must be a number ≥ 0/);
  });
});
