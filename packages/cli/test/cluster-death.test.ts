/*
 * `critsec cluster` with the (1,3)-GCS on 4 members, one SIGKILLed in the middle of the run:
 * the summary counts every member's work from the shared log and names the death (see
 * member-death.ts; the mutex over 5 members is `cluster-death.long.test.ts`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { killMemberMidRun } from './member-death.js';

const tmp = mkdtempSync(join(tmpdir(), 'critsec-cluster-death-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('critsec cluster: a member SIGKILLed in the middle of the run', () => {
  it('gcs (l = 1, k = 3), n = 4: the summary counts the survivors’ work and names P1’s death', async () => {
    await killMemberMidRun({ algorithm: 'gcs', n: 4, params: { l: 1, k: 3 }, victim: 1, dir: tmp });
  });
});
