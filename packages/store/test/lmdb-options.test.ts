import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as lmdb from 'lmdb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lmdbStore } from '../src/index.js';

vi.mock('lmdb', async (importOriginal) => {
  const original = await importOriginal<typeof import('lmdb')>();
  return { ...original, open: vi.fn(original.open) };
});

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("lmdbStore: how it opens LMDB (the README's fsync semantics)", () => {
  it("turns lmdb-js's default overlapping sync off and keeps both syncs, so a commit resolves after its flush", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'critsec-store-opts-'));
    dirs.push(dir);
    const s = await lmdbStore(join(dir, 'm.lmdb'), { cluster: 'c', member: 0, mode: 'create' });
    await s.close();
    expect(vi.mocked(lmdb.open)).toHaveBeenCalledWith(
      expect.objectContaining({ overlappingSync: false, noSync: false, encoding: 'string' }),
    );
    const options = vi.mocked(lmdb.open).mock.calls[0]?.[0] as Record<string, unknown>;
    expect(options.noMetaSync).toBeFalsy();
    expect(options.mapAsync).toBeFalsy();
  });

  it('orders the transactions of successive turns and an empty commit waits for those in flight', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'critsec-store-opts-'));
    dirs.push(dir);
    const s = await lmdbStore(join(dir, 'm.lmdb'), { cluster: 'c', member: 0, mode: 'create' });
    s.stage('clock', 1);
    const first = s.commit();
    await new Promise((r) => setImmediate(r)); // the next turn: the first transaction is in flight
    s.stage('clock', 2);
    const second = s.commit();
    await new Promise((r) => setImmediate(r));
    const empty = s.commit();
    expect(await Promise.all([first, second, empty])).toEqual([
      { sequence: 1, records: 1 },
      { sequence: 2, records: 1 },
      { sequence: 2, records: 0 },
    ]);
    expect(s.load().records.get('clock')).toEqual({ value: 2, version: 2 });
    await s.close();
  });
});
