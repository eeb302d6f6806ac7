/**
 * `reachOf(labels)` is `reach` typed against a list of marks: it marks like `reach`, and a label
 * outside the list fails the type check (the `@ts-expect-error` below fails `tsc` if it does not).
 */
import { describe, expect, it } from 'vitest';
import { collectReached, reach, reachOf } from '../src/coverage.js';

const marks = ['demo:rare', 'demo:rarer'] as const;

describe('reachOf', () => {
  it('marks through the same collectors as reach', () => {
    const mark = reachOf(marks);
    expect(mark).toBe(reach);
    const c = collectReached();
    mark('demo:rare');
    mark('demo:rare');
    c.stop();
    expect(c.counts.get('demo:rare')).toBe(2);
    expect(c.missing(marks)).toEqual(['demo:rarer']);
  });

  it('types the label against the list', () => {
    const mark = reachOf(marks);
    // @ts-expect-error a label not in the list
    const typo = () => mark('demo:rair');
    expect(typeof typo).toBe('function');
  });
});
