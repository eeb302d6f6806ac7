/*
 * The scenario: `critsec cluster mutex --n 5`, one member SIGKILLed in the middle of the
 * run — the summary counts every member's work from the shared log and names the death (see
 * member-death.ts). Long: five members take over 20 s to start and run on a shared machine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { killMemberMidRun } from './member-death.js';

const tmp = mkdtempSync(join(tmpdir(), 'critsec-cluster-death-long-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('critsec cluster: a member SIGKILLed in the middle of the run', () => {
  it('mutex (grid), n = 5: the summary counts the survivors’ work and names P2’s death', async () => {
    await killMemberMidRun({ algorithm: 'mutex', n: 5, params: { coterie: 'grid' }, victim: 2, dir: tmp });
  });
});
