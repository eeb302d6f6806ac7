import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationError } from '@critsec/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lmdbStore, StoreError } from '../src/index.js';
import { killDuringCommits } from './kill-run.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'critsec-store-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const opts = (mode: 'create' | 'recover', extra = {}) => ({ cluster: 'c1', member: 1, mode, ...extra });

describe('lmdbStore', () => {
  it('commits, survives a close and reopen, bumps the incarnation, keeps the store id', async () => {
    const path = join(dir, 'm1.lmdb');
    const a = await lmdbStore(path, opts('create'));
    a.stage('grant', { holder: 4, queue: [1, 2] });
    a.stage('tag:0', 'p1-r9');
    expect(await a.commit()).toEqual({ sequence: 1, records: 2 });
    a.stage('tag:0', undefined);
    await a.commit();
    await a.close();
    expect(existsSync(path)).toBe(true);
    const b = await lmdbStore(path, opts('recover'));
    expect(b.identity).toMatchObject({
      cluster: 'c1',
      member: 1,
      incarnation: 2,
      storeId: a.identity.storeId,
    });
    expect(b.load().sequence).toBe(2);
    expect(Object.fromEntries(b.load().records)).toEqual({
      grant: { value: { holder: 4, queue: [1, 2] }, version: 1 },
    });
    await b.close();
  });

  it('group commit: a burst of one turn is one transaction', async () => {
    const s = await lmdbStore(join(dir, 'm.lmdb'), opts('create'));
    const receipts = Array.from({ length: 50 }, (_, i) => {
      s.stage(`tag:${i}`, i);
      return s.commit();
    });
    const all = await Promise.all(receipts);
    expect(new Set(all.map((r) => r.sequence))).toEqual(new Set([1]));
    expect(all[0]?.records).toBe(50);
    await s.close();
  });

  it('refuses a lost store, a second create and a foreign store with StoreError naming the way out', async () => {
    const path = join(dir, 'm.lmdb');
    await expect(lmdbStore(path, opts('recover'))).rejects.toMatchObject({
      reason: 'missing',
      message: /Way out/,
    });
    await (await lmdbStore(path, opts('create'))).close();
    await expect(lmdbStore(path, opts('create'))).rejects.toMatchObject({ reason: 'exists' });
    await expect(lmdbStore(path, { ...opts('recover'), cluster: 'c2' })).rejects.toMatchObject({
      reason: 'foreign',
    });
    await expect(lmdbStore(path, { ...opts('recover'), member: 0 })).rejects.toBeInstanceOf(StoreError);
    await (await lmdbStore(path, opts('recover'))).close(); // the refusals left it usable
  });

  it('refuses oversized values and bad options', async () => {
    await expect(lmdbStore('', opts('create'))).rejects.toBeInstanceOf(ConfigurationError);
    const s = await lmdbStore(join(dir, 'm.lmdb'), opts('create', { maxValueBytes: 100 }));
    expect(() => s.stage('k', 'x'.repeat(200))).toThrow(expect.objectContaining({ reason: 'oversized' }));
    await s.close();
    expect(() => s.stage('k', 1)).toThrow(expect.objectContaining({ reason: 'closed' }));
  });

  it('SIGKILL in the middle of commits never loses a reported commit nor tears one (2 kills)', async () => {
    expect(await killDuringCommits(7, 400, 2)).toBe(2);
  });
});
