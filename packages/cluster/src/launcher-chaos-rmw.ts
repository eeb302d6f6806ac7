/*
 * The workload under the lock of a chaos run (`runChaos`, launcher-chaos.ts): a read-modify-write
 * of a shared counter on disk, the way Jepsen checks a lock service, and the shared-log record
 * each completed one leaves.
 *
 * Layout, in the run directory's `chaos/`:
 * - `counter-<s>`: the counter of slot `s`, `{"value":v,"by":token}` (`by` null before the first
 *   write), replaced atomically (written to `counter-<s>.<token>.tmp`, then `rename(2)`);
 * - `slot-<s>.claim` (k > 1 only): created by the holder that uses slot `s` — hard-linked from a
 *   file holding its token, so it exists only with the token in it (and `link(2)` fails if it
 *   exists) — and removed before it calls `exit()`.
 *
 * With k = 1 there is one counter and no claim: the lock is the only thing between two
 * read-modify-writes, so an overlap shows as an update lost. With k > 1 the k holders the
 * algorithm lets in at once need k counters: a holder takes the first slot whose claim it can
 * create; a (k+1)-th holder finds every slot taken and logs `rmw-refused` — its update cannot
 * be made, which the check counts as lost (chaos-check.ts).
 *
 * A token (`P<p>/<os pid>/<seq>`) names one write. A holder writes the counter first and logs
 * `rmw` after; killed between the two, its write is still seen — by the next holder, who logs
 * what it read with its writer's token, or in the final counter file — so the check counts it
 * as completed without a record of its own (no false lost update).
 */
import {
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';

/** What a counter file holds: the value, and the token of the write that put it there (`null`: never written). */
export interface CounterContent {
  /** The counter's value. */
  readonly value: number;
  /** The write's token, `null` for the initial content. */
  readonly by: string | null;
}

/** What a completed read-modify-write put in a counter. */
export interface CounterWrite {
  /** The value written: the value read plus one. */
  readonly value: number;
  /** The writer's token (`P<p>/<os pid>/<seq>`). */
  readonly by: string;
}

/** A chaos record of the shared log (beside the call records of shared-log.ts). */
export type ChaosLogRecord =
  | {
      /** The process. */
      readonly p: number;
      /** A completed read-modify-write. */
      readonly e: 'rmw';
      /** Wall-clock ms (informational). */
      readonly t: number;
      /** The slot (counter) it used. */
      readonly s: number;
      /** What it read. */
      readonly read: CounterContent;
      /** What it wrote (`value` = `read.value + 1`, `by` its token). */
      readonly wrote: CounterWrite;
    }
  | {
      /** The process. */
      readonly p: number;
      /** A holder found every slot claimed (k > 1): its update could not be made. */
      readonly e: 'rmw-refused';
      /** Wall-clock ms (informational). */
      readonly t: number;
      /** The tokens in the claims it found. */
      readonly claims: readonly string[];
    };

/** Where the chaos files of a run directory are. */
export function chaosDir(runDir: string): string {
  return join(runDir, 'chaos');
}

/** The path of slot `s`'s counter. */
function counterPath(dir: string, s: number): string {
  return join(dir, `counter-${s}`);
}

/** The path of slot `s`'s claim. */
function claimPath(dir: string, s: number): string {
  return join(dir, `slot-${s}.claim`);
}

/** Creates `dir` with `slots` counters at 0 (a fresh run). */
export function initCounters(dir: string, slots: number): void {
  mkdirSync(dir, { recursive: true });
  for (let s = 0; s < slots; s++) writeFileSync(counterPath(dir, s), JSON.stringify({ value: 0, by: null }));
}

/** Reads slot `s`'s counter. */
export function readCounter(dir: string, s: number): CounterContent {
  return JSON.parse(readFileSync(counterPath(dir, s), 'utf8')) as CounterContent;
}

/** The slot a holder takes: 0 for k = 1; else the first whose claim it creates (link(2), exclusive), or the claims it found. */
function claimSlot(dir: string, k: number, token: string): number | string[] {
  if (k === 1) return 0;
  const found: string[] = [];
  // The claim appears with its token in it, or not at all: the token is written to a file of
  // this holder's own, which is then hard-linked as the claim (link(2) fails if the claim exists:
  // O_EXCL's guarantee). A claim created empty and filled after (open O_EXCL, then write) is left
  // empty by a holder killed in between, and an empty claim names nobody to release it: 300 kills
  // of `critsec chaos gcs` leaked both slots that way.
  const mine = `${claimPath(dir, 0)}.${token.replaceAll('/', '_')}.tmp`;
  writeFileSync(mine, token);
  try {
    for (let s = 0; s < k; s++) {
      try {
        linkSync(mine, claimPath(dir, s));
        return s;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        found.push(readClaim(dir, s));
      }
    }
    return found;
  } finally {
    unlinkSync(mine);
  }
}

function readClaim(dir: string, s: number): string {
  try {
    return readFileSync(claimPath(dir, s), 'utf8');
  } catch {
    return '?'; // released meanwhile
  }
}

/** Appends one record to the shared log as one `O_APPEND` write. */
function appendRecord(logPath: string, record: ChaosLogRecord): void {
  const fd = openSync(logPath, 'a');
  try {
    writeSync(fd, `${JSON.stringify(record)}\n`);
  } finally {
    closeSync(fd);
  }
}

/**
 * One read-modify-write by process `p` in its CS (k slots): claim a slot (k > 1), read its
 * counter, write value + 1 atomically, log `rmw`, release the claim. With every slot claimed it
 * logs `rmw-refused` and changes nothing. Synchronous: nothing else of the member runs meanwhile.
 */
export function readModifyWrite(options: {
  readonly dir: string;
  readonly logPath: string;
  readonly p: number;
  readonly k: number;
  readonly token: string;
}): void {
  const { dir, logPath, p, k, token } = options;
  const slot = claimSlot(dir, k, token);
  if (typeof slot !== 'number') {
    appendRecord(logPath, { p, e: 'rmw-refused', t: Date.now(), claims: slot });
    return;
  }
  const read = readCounter(dir, slot);
  const wrote = { value: read.value + 1, by: token };
  const tmp = `${counterPath(dir, slot)}.${token.replaceAll('/', '_')}.tmp`;
  writeFileSync(tmp, JSON.stringify(wrote));
  renameSync(tmp, counterPath(dir, slot));
  appendRecord(logPath, { p, e: 'rmw', t: Date.now(), s: slot, read, wrote });
  if (k > 1) unlinkSync(claimPath(dir, slot));
}

/** Removes the claims process `p` left (it was killed holding them); returns how many. */
export function releaseClaimsOf(dir: string, k: number, p: number): number {
  let released = 0;
  if (k === 1) return 0;
  for (let s = 0; s < k; s++) {
    const token = readClaim(dir, s);
    if (token.startsWith(`P${p}/`)) {
      try {
        unlinkSync(claimPath(dir, s));
        released++;
      } catch {
        // gone meanwhile
      }
    }
  }
  return released;
}
