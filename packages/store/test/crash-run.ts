/**
 * The memory store's crash checks over a recorded run (shared by the short and long tests):
 * crash at every write, and recover from every prefix.
 */
import { createRng } from '@critsec/core';
import { expect } from 'vitest';
import { type MemoryDisk, memoryDisk, memoryStore, StoreError } from '../src/index.js';
import { expectedStates, plain, recordedRun, stageStep } from './recorded-run.js';

const CREATE = { cluster: 'c1', member: 0, mode: 'create' } as const;
const RECOVER = { ...CREATE, mode: 'recover' } as const;

/** Run `run` on a fresh store; returns how many commits resolved (stops at the first failure). */
async function runUntilCrash(disk: MemoryDisk, run: ReturnType<typeof recordedRun>): Promise<number> {
  let store: ReturnType<typeof memoryStore>;
  try {
    store = memoryStore(disk, CREATE);
  } catch (e) {
    expect(e).toBeInstanceOf(StoreError);
    return 0;
  }
  let resolved = 0;
  for (let i = 0; i < run.length; i++) {
    stageStep(store, run, i);
    try {
      await store.commit();
    } catch (e) {
      expect(e).toMatchObject({ reason: 'io' });
      return resolved;
    }
    resolved++;
  }
  return resolved;
}

/**
 * For every write w of the recorded run (seed, steps): crash the disk at w, restart it, recover;
 * the store must be exactly the committed prefix of every commit that resolved — no more (the
 * crashed transaction is torn, invisible), no less. Returns the number of crash points checked.
 */
export async function crashAtEveryWrite(seed: number, steps: number): Promise<number> {
  const run = recordedRun(seed, steps);
  const expected = expectedStates(run);
  const clean = memoryDisk();
  await runUntilCrash(clean, run);
  const total = clean.writes;
  for (let w = 0; w < total; w++) {
    const disk = memoryDisk();
    disk.crashAtWrite(w);
    const resolved = await runUntilCrash(disk, run);
    expect(disk.crashed, `write ${w}`).toBe(true);
    disk.restart();
    let recovered: ReturnType<typeof memoryStore>;
    try {
      recovered = memoryStore(disk, RECOVER);
    } catch (e) {
      // the crash hit the identity write of the create: the store was never created
      expect(e, `write ${w}`).toMatchObject({ reason: 'missing' });
      expect(resolved).toBe(0);
      continue;
    }
    const snap = recovered.load();
    expect(snap.sequence, `write ${w}`).toBe(resolved);
    expect(plain(snap.records), `write ${w}`).toEqual(plain(expected[resolved] as Map<string, never>));
  }
  return total;
}

/**
 * For every prefix k of the recorded run: commit k steps, stage step k+1 and crash with a seeded
 * torn write of it; recovery must see exactly prefix k, and the recovered member, continuing the
 * run, must end with the same state as an uncrashed run.
 */
export async function recoverFromEveryPrefix(seed: number, steps: number): Promise<void> {
  const run = recordedRun(seed, steps);
  const expected = expectedStates(run);
  const rng = createRng(seed ^ 0x5eed);
  for (let k = 0; k < run.length; k++) {
    const disk = memoryDisk();
    const store = memoryStore(disk, CREATE);
    for (let i = 0; i < k; i++) {
      stageStep(store, run, i);
      await store.commit();
    }
    stageStep(store, run, k);
    const lost = store.commit();
    store.crash({ tornWrites: rng.int((run[k] as unknown[]).length + 1) });
    await expect(lost).rejects.toBeInstanceOf(StoreError);
    disk.restart();
    const again = memoryStore(disk, RECOVER);
    expect(again.load().sequence).toBe(k);
    expect(plain(again.load().records), `prefix ${k}`).toEqual(plain(expected[k] as Map<string, never>));
    for (let i = k; i < run.length; i++) {
      stageStep(again, run, i);
      await again.commit();
    }
    expect(plain(again.load().records)).toEqual(plain(expected[run.length] as Map<string, never>));
    expect(again.identity.incarnation).toBe(2);
  }
}
