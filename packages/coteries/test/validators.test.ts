import { ConfigurationError, CoterieError } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import {
  assertCoterie,
  checkCoterie,
  checkQuorums,
  coterieFromJSON,
  fromQuorums,
  grid,
  majority,
  projectivePlane,
} from '../src/index.js';

describe('checkCoterie — Def. 3: nonemptiness, intersection, minimality', () => {
  it('accepts coteries and says what it checked', () => {
    const r = checkQuorums(3, [
      [0, 1],
      [1, 2],
      [0, 2],
    ]);
    expect(r).toMatchObject({ ok: true, quorumCount: 3 });
    expect(r.message).toMatch(/valid coterie: 3 distinct quorums over 3 processes/);
  });

  it('names the first pair that does not intersect', () => {
    const r = checkQuorums(8, [
      [0, 1],
      [1, 2],
      [1, 4],
      [1, 3],
      [2, 5],
    ]);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.violation.kind).toBe('not-intersecting');
    expect(r.message).toBe(
      'quorum #0 = {0, 1} and quorum #4 = {2, 5} do not intersect; every two quorums of a coterie must share a process (intersection property)',
    );
  });

  it('names a quorum by the process that uses it when the system has an assignment', () => {
    const assignment = [
      [1, 2],
      [1, 2],
      [1, 2],
      [1, 4],
      [1, 2],
      [1, 2],
      [1, 2],
      [2, 5],
    ];
    expect(() => fromQuorums(8, assignment)).toThrow(CoterieError);
    expect(() => fromQuorums(8, assignment)).toThrow(
      'custom: Q_3 = {1, 4} and Q_7 = {2, 5} do not intersect; every two quorums of a coterie must share a process (intersection property)',
    );
  });

  it('names a pair that breaks minimality', () => {
    const r = checkQuorums(4, [
      [0, 1, 2],
      [2, 3],
      [0, 2],
    ]);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.violation).toMatchObject({ kind: 'not-minimal', subset: { index: 2 }, superset: { index: 0 } });
    expect(r.message).toMatch(/^quorum #2 = \{0, 2\} is a proper subset of quorum #0 = \{0, 1, 2\}/);
    expect(() =>
      fromQuorums(3, [
        [0, 1, 2],
        [0, 1],
        [1, 2],
      ]),
    ).toThrow(/Q_1 = \{0, 1\} is a proper subset of Q_0 = \{0, 1, 2\}/);
  });

  it('reports empty quorums, ids out of range, repeated members, bad n', () => {
    const empty = checkQuorums(3, [[0], []]);
    expect(empty).toMatchObject({ ok: false, violation: { kind: 'empty' } });
    expect(empty.message).toMatch(/quorum #1 is empty; every quorum needs at least one process/);
    const out = checkQuorums(3, [[0, 3]]);
    expect(out.message).toMatch(/quorum #0 contains 3, but processes are the integers 0\.\.2/);
    expect(checkQuorums(3, [[0, -1]]).ok).toBe(false);
    expect(checkQuorums(3, [[0, 0.5]]).ok).toBe(false);
    expect(checkQuorums(3, [[1, 1]]).message).toMatch(/lists process 1 twice/);
    expect(checkQuorums(0, [[0]]).message).toMatch(/n must be an integer ≥ 1/);
    expect(checkQuorums(3, []).message).toMatch(/no quorums/);
  });

  it('treats repeated quorums as one and sorts unsorted ones', () => {
    expect(
      checkQuorums(3, [
        [1, 0],
        [0, 1],
        [2, 1],
      ]).ok,
    ).toBe(true);
    const c = fromQuorums(3, [
      [1, 0],
      [0, 1],
      [2, 1],
    ]);
    expect(c.quorums).toEqual([
      [0, 1],
      [1, 2],
    ]);
    expect(c.quorumOf(0)).toBe(c.quorumOf(1));
  });

  it('validates large systems with both the sparse and the dense method', () => {
    expect(checkCoterie(grid(1024)).ok).toBe(true);
    expect(checkCoterie(majority(600)).ok).toBe(true);
    expect(checkCoterie(projectivePlane(13)).ok).toBe(true);
    // break a 400-process grid: process 399 gets {399} only → misses Q_0
    const a = grid(400)
      .toJSON()
      .assignment.map((q) => [...q]);
    a[399] = [399];
    const r = checkQuorums(400, a);
    expect(r.ok).toBe(false);
    expect(r.message).toMatch(
      /^quorum #0 = \{0, 1, .*, 380\} \(39 processes\) and quorum #399 = \{399\} do not intersect/,
    );
    // dense: two disjoint halves among majorities
    const b = majority(101)
      .toJSON()
      .assignment.map((q) => [...q]);
    b[100] = Array.from({ length: 40 }, (_, t) => 60 + t);
    b[99] = Array.from({ length: 40 }, (_, t) => t);
    const rb = checkQuorums(101, b);
    expect(rb.ok).toBe(false);
    // the first disjoint pair in index order is (0, 100): {0..50} and {60..99}
    expect(rb.message).toMatch(
      /^quorum #0 = \{0, .*, 50\} \(51 processes\) and quorum #100 = \{60, .*, 99\} \(40 processes\) do not intersect/,
    );
  });

  it('assertCoterie throws CoterieError with the message', () => {
    expect(() => assertCoterie({ n: 2, quorums: [[0], [1]] })).toThrow(CoterieError);
    expect(() => assertCoterie({ n: 2, quorums: [[0], [1]] })).toThrow(/do not intersect/);
    expect(() => assertCoterie(grid(16))).not.toThrow();
  });
});

describe('fromQuorums / JSON', () => {
  it('round-trips every construction through JSON', () => {
    for (const c of [
      grid(10),
      majority(8),
      projectivePlane(3),
      fromQuorums(3, [
        [0, 1],
        [1, 2],
        [0, 2],
      ]),
    ]) {
      const text = JSON.stringify(c);
      const back = coterieFromJSON(text);
      expect(back.kind).toBe(c.kind);
      expect(back.quorums).toEqual(c.quorums);
      for (let i = 0; i < c.n; i++) expect(back.quorumOf(i)).toEqual(c.quorumOf(i));
      expect(coterieFromJSON(JSON.parse(text)).toJSON()).toEqual(c.toJSON());
    }
  });

  it('rejects malformed JSON with what was wrong and what is expected', () => {
    expect(() => coterieFromJSON('{')).toThrow(/does not parse/);
    expect(() => coterieFromJSON(null)).toThrow(/must be an object, got null/);
    expect(() => coterieFromJSON([])).toThrow(/got an array/);
    expect(() => coterieFromJSON({ n: 0, assignment: [] })).toThrow(/"n" must be an integer ≥ 1, got 0/);
    expect(() => coterieFromJSON({ n: 2, kind: 3, assignment: [[0], [0]] })).toThrow(
      /"kind" must be a string/,
    );
    expect(() => coterieFromJSON({ n: 2 })).toThrow(/"assignment" must be an array of n = 2 quorums/);
    expect(() => coterieFromJSON({ n: 3, assignment: [[0], [0]] })).toThrow(
      /one quorum per process \(3 entries, Q_0\.\.Q_2\), got 2 entries/,
    );
    expect(() => coterieFromJSON({ n: 2, assignment: [[0], 'x'] })).toThrow(
      /Q_1 must be an array of process ids/,
    );
    expect(() => coterieFromJSON({ n: 2, assignment: [[0], [5]] })).toThrow(
      /Q_1 contains 5, but processes are the integers 0\.\.1/,
    );
    expect(() => coterieFromJSON({ n: 2, assignment: [[0], []] })).toThrow(/Q_1 is empty/);
    expect(() => coterieFromJSON({ n: 2, assignment: [[0], [1]] })).toThrow(
      /Q_0 = \{0\} and Q_1 = \{1\} do not intersect/,
    );
    for (const bad of ['{', null, { n: 2, assignment: [[0], [1]] }]) {
      expect(() => coterieFromJSON(bad)).toThrow(CoterieError);
    }
  });

  it('rejects a bad n with ConfigurationError', () => {
    expect(() => fromQuorums(0, [])).toThrow(ConfigurationError);
  });
});
