import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { releaseStoreLocksOf } from '../src/launcher-chaos-fence.js';
import { initCounters, readCounter, readModifyWrite, releaseClaimsOf } from '../src/launcher-chaos-rmw.js';
import { tempDirs } from './helpers.js';

const tempDir = tempDirs('critsec-chaos-rmw-');

describe("the chaos run's read-modify-write under the lock (k slots)", () => {
  it('k = 2: a holder claims a free slot, writes it and releases the claim; the log names each write', async () => {
    const dir = tempDir();
    const logPath = join(dir, 'shared.log');
    initCounters(dir, 2);
    await readModifyWrite({ dir, logPath, p: 0, k: 2, token: 'P0/1/1' });
    await readModifyWrite({ dir, logPath, p: 1, k: 2, token: 'P1/2/1' });
    expect(readCounter(dir, 0)).toEqual({ value: 2, by: 'P1/2/1' });
    // no claim and no temporary file is left behind
    expect(readdirSync(dir).filter((f) => f.includes('claim'))).toEqual([]);
    const records = readFileSync(logPath, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(records.map((r) => [r.e, r.s, r.read.value, r.wrote.by])).toEqual([
      ['rmw', 0, 0, 'P0/1/1'],
      ['rmw', 0, 1, 'P1/2/1'],
    ]);
  });

  it('a claim left by a killed holder names it, so it is released; until then the next holder takes another slot', async () => {
    const dir = tempDir();
    const logPath = join(dir, 'shared.log');
    initCounters(dir, 2);
    // P3 was killed holding slot 0: its claim is there, with its token
    writeFileSync(join(dir, 'slot-0.claim'), 'P3/99/4');
    await readModifyWrite({ dir, logPath, p: 1, k: 2, token: 'P1/2/1' });
    expect(readCounter(dir, 1)).toEqual({ value: 1, by: 'P1/2/1' });
    expect(releaseClaimsOf(dir, 2, 1)).toBe(0);
    expect(releaseClaimsOf(dir, 2, 3)).toBe(1);
    await readModifyWrite({ dir, logPath, p: 2, k: 2, token: 'P2/5/1' });
    expect(readCounter(dir, 0)).toEqual({ value: 1, by: 'P2/5/1' });
  });

  it('every slot claimed: the holder logs rmw-refused with the tokens it found, and changes nothing', async () => {
    const dir = tempDir();
    const logPath = join(dir, 'shared.log');
    initCounters(dir, 2);
    writeFileSync(join(dir, 'slot-0.claim'), 'P3/99/4');
    writeFileSync(join(dir, 'slot-1.claim'), 'P4/98/2');
    await readModifyWrite({ dir, logPath, p: 1, k: 2, token: 'P1/2/1' });
    const [r] = readFileSync(logPath, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(r).toMatchObject({ p: 1, e: 'rmw-refused', claims: ['P3/99/4', 'P4/98/2'] });
    expect([readCounter(dir, 0).value, readCounter(dir, 1).value]).toEqual([0, 0]);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('a fencing-aware counter (issue 28): a holder paused between its read and its write after a newer token read is rejected, and loses no update', async () => {
    const dir = tempDir();
    const logPath = join(dir, 'shared.log');
    initCounters(dir, 1);
    // P0 reads under token 3, and is paused in its hold while P1 (token 4) makes its whole update
    await readModifyWrite({
      dir,
      logPath,
      p: 0,
      k: 1,
      token: 'P0/1/1',
      fence: { token: 3, checked: true },
      hold: () =>
        readModifyWrite({ dir, logPath, p: 1, k: 1, token: 'P1/2/1', fence: { token: 4, checked: true } }),
    });
    expect(readCounter(dir, 0)).toEqual({ value: 1, by: 'P1/2/1', fence: 4 });
    const records = readFileSync(logPath, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(records.map((r) => [r.e, r.p, r.f])).toEqual([
      ['rmw', 1, 4],
      ['rmw-fenced', 0, 3],
    ]);
    expect(records[1]).toMatchObject({ op: 'write', fence: 4 });
    // a stale read is rejected too: nothing is written, and no store lock is left behind
    await readModifyWrite({ dir, logPath, p: 2, k: 1, token: 'P2/3/1', fence: { token: 2, checked: true } });
    expect(readCounter(dir, 0).value).toBe(1);
    expect(readdirSync(dir).filter((f) => f.includes('lock'))).toEqual([]);
  });

  it('the plain counter accepts the stale token: the same interleaving loses an update', async () => {
    const dir = tempDir();
    const logPath = join(dir, 'shared.log');
    initCounters(dir, 1);
    await readModifyWrite({
      dir,
      logPath,
      p: 0,
      k: 1,
      token: 'P0/1/1',
      fence: { token: 3, checked: false },
      hold: () =>
        readModifyWrite({ dir, logPath, p: 1, k: 1, token: 'P1/2/1', fence: { token: 4, checked: false } }),
    });
    // two completed writes, value 1
    expect(readCounter(dir, 0)).toEqual({ value: 1, by: 'P0/1/1' });
  });

  it('a store lock left by a killed member names it, so it is released (and only its own)', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'counter-0.lock'), 'P3/77');
    writeFileSync(join(dir, 'counter-1.lock'), 'P1/78');
    expect(releaseStoreLocksOf(dir, 3)).toBe(1);
    expect(readdirSync(dir).sort()).toEqual(['counter-1.lock']);
  });
});
