import { ConfigurationError } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import { memoryDisk, memoryStore, StoreError } from '../src/index.js';

const member = (mode: 'create' | 'recover', extra = {}) => ({ cluster: 'c1', member: 2, mode, ...extra });

describe('memoryStore: stage, commit, load', () => {
  it('commits staged records and loads them back after a restart, versioned by their transaction', async () => {
    const disk = memoryDisk();
    const s = memoryStore(disk, member('create'));
    s.stage('grant', { holder: 3 });
    s.stage('clock', 7);
    expect(s.load().records.size).toBe(0); // staged is not committed
    expect(await s.commit()).toEqual({ sequence: 1, records: 2 });
    s.stage('clock', 8);
    s.stage('grant', undefined);
    await s.commit();
    await s.close();
    const r = memoryStore(disk, member('recover'));
    expect(r.load().sequence).toBe(2);
    expect(Object.fromEntries(r.load().records)).toEqual({ clock: { value: 8, version: 2 } });
  });

  it('group commit: every stage and commit of one turn share one transaction (one sync)', async () => {
    const disk = memoryDisk();
    const s = memoryStore(disk, member('create'));
    const before = disk.writes;
    const receipts = [];
    for (let i = 0; i < 10; i++) {
      s.stage(`tag:${i}`, i);
      receipts.push(s.commit());
    }
    const all = await Promise.all(receipts);
    expect(new Set(all.map((r) => r.sequence))).toEqual(new Set([1]));
    expect(all[0]?.records).toBe(10);
    expect(disk.writes - before).toBe(10 + 1 + 1); // 10 records, the sequence entry, one commit mark
  });

  it('a commit with nothing staged resolves with the current sequence and writes nothing', async () => {
    const disk = memoryDisk();
    const s = memoryStore(disk, member('create'));
    const before = disk.writes;
    expect(await s.commit()).toEqual({ sequence: 0, records: 0 });
    expect(disk.writes).toBe(before);
  });

  it('crash() loses every staged and every unwritten commit; committed ones survive', async () => {
    const disk = memoryDisk();
    const s = memoryStore(disk, member('create'));
    s.stage('grant', 1);
    await s.commit();
    s.stage('grant', 2);
    const lost = s.commit();
    s.crash();
    await expect(lost).rejects.toMatchObject({ reason: 'closed' });
    expect(() => s.stage('x', 1)).toThrow(StoreError);
    const r = memoryStore(disk, member('recover'));
    expect(Object.fromEntries(r.load().records)).toEqual({ grant: { value: 1, version: 1 } });
  });

  it('a torn transaction (crash part-way through its writes) is never visible', async () => {
    const disk = memoryDisk();
    const s = memoryStore(disk, member('create'));
    s.stage('a', 1);
    await s.commit();
    s.stage('a', 2);
    s.stage('b', 2);
    s.crash({ tornWrites: 1 });
    expect(disk.torn.length).toBe(1);
    disk.restart();
    const r = memoryStore(disk, member('recover'));
    expect(r.load().sequence).toBe(1);
    expect(Object.fromEntries(r.load().records)).toEqual({ a: { value: 1, version: 1 } });
  });
});

describe('memoryStore: a failed write', () => {
  it('rejects the commit with io, and the store accepts nothing more (restart and recover)', async () => {
    const disk = memoryDisk();
    const s = memoryStore(disk, member('create'));
    disk.crashAtWrite(disk.writes + 1); // the second write of the next transaction
    s.stage('a', 1);
    s.stage('b', 2);
    await expect(s.commit()).rejects.toMatchObject({ reason: 'io' });
    expect(() => s.stage('c', 3)).toThrow(expect.objectContaining({ reason: 'io' }));
    expect(() => s.commit()).toThrow(expect.objectContaining({ reason: 'io' }));
    disk.restart();
    expect(memoryStore(disk, member('recover')).load()).toMatchObject({ sequence: 0, records: new Map() });
  });
});

describe('memoryStore: identity', () => {
  it('bumps the incarnation on every open and keeps the store id', () => {
    const disk = memoryDisk();
    const a = memoryStore(disk, member('create'));
    const b = memoryStore(disk, member('recover'));
    const c = memoryStore(disk, member('recover'));
    expect([a, b, c].map((s) => s.identity.incarnation)).toEqual([1, 2, 3]);
    expect(new Set([a, b, c].map((s) => s.identity.storeId)).size).toBe(1);
    expect(c.identity).toMatchObject({ cluster: 'c1', member: 2 });
  });

  it('refuses a lost store (missing), a second create (exists), another member or cluster (foreign), naming the way out', () => {
    const err = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e as StoreError;
      }
      throw new Error('no error');
    };
    const disk = memoryDisk();
    expect(err(() => memoryStore(disk, member('recover')))).toMatchObject({
      reason: 'missing',
      code: 'STORE',
    });
    expect(err(() => memoryStore(disk, member('recover'))).message).toMatch(/Way out: .*new member/);
    memoryStore(disk, member('create'));
    expect(err(() => memoryStore(disk, member('create')))).toMatchObject({ reason: 'exists' });
    expect(err(() => memoryStore(disk, { ...member('recover'), member: 3 }))).toMatchObject({
      reason: 'foreign',
    });
    expect(err(() => memoryStore(disk, { ...member('recover'), cluster: 'c2' })).message).toMatch(/Way out/);
  });
});

describe('memoryStore: bounds', () => {
  it('refuses oversized keys and values before staging anything', async () => {
    const s = memoryStore(memoryDisk(), member('create', { maxKeyBytes: 8, maxValueBytes: 32 }));
    expect(() => s.stage('123456789', 1)).toThrow(expect.objectContaining({ reason: 'oversized' }));
    expect(() => s.stage('k', 'x'.repeat(40))).toThrow(expect.objectContaining({ reason: 'oversized' }));
    expect(() => s.stage('ü'.repeat(5), 1)).toThrow(/10 bytes/); // counted in UTF-8 bytes
    expect(await s.commit()).toEqual({ sequence: 0, records: 0 });
  });

  it('refuses values that are not JSON and bad options with ConfigurationError', () => {
    const s = memoryStore(memoryDisk(), member('create'));
    expect(() => s.stage('k', Number.NaN)).toThrow(ConfigurationError);
    expect(() => s.stage('k', new Date() as never)).toThrow(ConfigurationError);
    expect(() => s.stage('', 1)).toThrow(ConfigurationError);
    expect(() => memoryStore(memoryDisk(), member('create', { maxValueBytes: 0 }))).toThrow(
      ConfigurationError,
    );
    expect(() => memoryStore(memoryDisk(), member('create', { maxKeyBytes: 600 }))).toThrow(
      ConfigurationError,
    );
    expect(() => memoryStore(memoryDisk(), { cluster: 'c', member: -1, mode: 'create' })).toThrow(
      ConfigurationError,
    );
  });

  it('after close() every call throws StoreError closed; close() writes the pending turn first', async () => {
    const disk = memoryDisk();
    const s = memoryStore(disk, member('create'));
    s.stage('k', 1);
    const p = s.commit();
    await s.close();
    expect(await p).toEqual({ sequence: 1, records: 1 });
    expect(() => s.stage('k', 2)).toThrow(expect.objectContaining({ reason: 'closed' }));
    expect(() => s.commit()).toThrow(expect.objectContaining({ reason: 'closed' }));
  });
});
