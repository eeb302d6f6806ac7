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
 * The holder reads, holds (its hold time), then writes: a holder paused in its CS is paused
 * between its read and its write, where a stale holder loses an update. When the CS gives a
 * tenure (issue 28: Maekawa with `fencing` or a `ttl`), its fencing token goes with the read and
 * the write: through the fencing-aware counter of launcher-chaos-fence.ts, which rejects a stale
 * token (`rmw-fenced`), or — `fencedStore: false`, to show the checker bites — through the plain
 * one, which accepts it.
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
import { admits, underStoreLock } from './launcher-chaos-fence.js';

/**
 * What a counter file holds: the value, the token of the write that put it there (`null`: never
 * written), and — a fencing-aware counter only — the highest fencing token seen.
 */
export interface CounterContent {
  /** The counter's value. */
  readonly value: number;
  /** The write's token, `null` for the initial content. */
  readonly by: string | null;
  /** The highest fencing token an accepted operation carried (fencing-aware counter; absent before the first). */
  readonly fence?: number;
  /**
   * A counter shared holders also read (a shared name of `critsec chaos locks`): the highest token
   * an accepted read-modify-write carried — what a shared read must not be below (h-out-of-k's
   * resource rule: only a conflicting mode fences).
   */
  readonly fenceX?: number;
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
      /** The fencing token it read and wrote under (a CS with a tenure). */
      readonly f?: number;
    }
  | {
      /** The process. */
      readonly p: number;
      /** The fencing-aware counter rejected the holder's read or write: its token was stale. */
      readonly e: 'rmw-fenced';
      /** Wall-clock ms (informational). */
      readonly t: number;
      /** The slot. */
      readonly s: number;
      /** The operation rejected. */
      readonly op: 'read' | 'write';
      /** The holder's fencing token. */
      readonly f: number;
      /** The highest token the counter had seen. */
      readonly fence: number;
    }
  | {
      /** The process. */
      readonly p: number;
      /**
       * `tenure`: an entry completed with a tenure (fencing token `f`, `remainingMs` left);
       * `tenure-late`: the holder found its tenure expired once that record was written (the
       * record is no evidence of the token order); `tenure-expired`: the holder's tenure had
       * expired when it came to exit.
       */
      readonly e: 'tenure' | 'tenure-late' | 'tenure-expired';
      /** Wall-clock ms (informational). */
      readonly t: number;
      /** The fencing token. */
      readonly f: number;
      /** The round of the CS (as in its `entry-done` record). */
      readonly r?: number;
      /** `tenure`: the time left to the deadline, ms (`remaining()`; `null` without a ttl). */
      readonly remainingMs?: number | null;
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

/** Appends one chaos record to the shared log as one `O_APPEND` write. */
export function appendChaosRecord(logPath: string, record: ChaosLogRecord): void {
  const fd = openSync(logPath, 'a');
  try {
    writeSync(fd, `${JSON.stringify(record)}\n`);
  } finally {
    closeSync(fd);
  }
}

/** The fencing token a holder reads and writes under, and whether the counter checks it. */
export interface RmwFence {
  /** The holder's fencing token (its tenure's). */
  readonly token: number;
  /** The counter rejects a stale token (fencing-aware, launcher-chaos-fence.ts); false: it accepts every operation. */
  readonly checked: boolean;
  /**
   * Shared holders read the counter too (readers–writers): a read-modify-write also raises
   * `fenceX`, the token a shared read must not be below ({@link sharedRead}).
   */
  readonly readers?: boolean;
}

/** Writes `content` to slot `s`'s counter atomically (a temporary file named by `token`, then rename(2)). */
function writeCounter(dir: string, s: number, token: string, content: CounterContent): void {
  const tmp = `${counterPath(dir, s)}.${token.replaceAll('/', '_')}.tmp`;
  writeFileSync(tmp, JSON.stringify(content));
  renameSync(tmp, counterPath(dir, s));
}

/**
 * One operation of a fencing-aware counter under `fence.token`, as `owner`: the read (`wrote`
 * undefined) or the write, atomically with the check; `{ rejected: highest }` when the token is
 * below the highest the counter has seen.
 */
function fenced(
  dir: string,
  s: number,
  owner: string,
  fence: RmwFence,
  wrote?: CounterWrite,
): Promise<CounterContent | { rejected: number }> {
  return underStoreLock(dir, s, owner, () => {
    const c = readCounter(dir, s);
    if (!admits(c.fence, fence.token)) return { rejected: c.fence! };
    const raised = Math.max(c.fence ?? fence.token, fence.token);
    const x = fence.readers === true ? { fenceX: Math.max(c.fenceX ?? fence.token, fence.token) } : {};
    if (wrote !== undefined) writeCounter(dir, s, wrote.by, { ...wrote, fence: raised, ...x });
    else if (raised !== c.fence || x.fenceX !== c.fenceX)
      writeCounter(dir, s, `${owner}/read`, { ...c, fence: raised, ...x });
    return c;
  });
}

/** Options of {@link readModifyWrite}. */
interface RmwOptions {
  readonly dir: string;
  readonly logPath: string;
  readonly p: number;
  readonly k: number;
  /** Use this slot, unclaimed (`critsec chaos locks`: the counter of the name held; the lock alone guards it). */
  readonly slot?: number;
  /** Names the write: `P<p>/<os pid>/<seq>`. */
  readonly token: string;
  /** What the holder does between its read and its write (its hold time; default nothing). */
  readonly hold?: () => Promise<void>;
  /** A CS with a tenure: its fencing token, logged with the write, and checked by a fencing-aware counter. */
  readonly fence?: RmwFence;
}

/**
 * One read-modify-write by process `p` in its CS (k slots): claim a slot (k > 1), read its
 * counter, `hold()`, write the value read + 1 atomically, log `rmw`, release the claim. With
 * every slot claimed it logs `rmw-refused` and changes nothing. With a checked `fence` the read
 * and the write go through the fencing-aware counter: a stale token is rejected, logged
 * `rmw-fenced`, and the update is not made. The holder does not check its own tenure before it
 * writes: a pause may fall between such a check and the write anyway, and the run is there to
 * show what the counter alone guarantees.
 */
export async function readModifyWrite(options: RmwOptions): Promise<void> {
  const { dir, logPath, p, token, fence } = options;
  const k = options.slot === undefined ? options.k : 1; // an explicit slot is claimed by no file
  const slot = options.slot ?? claimSlot(dir, k, token);
  if (typeof slot !== 'number') {
    appendChaosRecord(logPath, { p, e: 'rmw-refused', t: Date.now(), claims: slot });
    return;
  }
  try {
    const owner = token.slice(0, token.lastIndexOf('/'));
    const rejected = (op: 'read' | 'write', r: { rejected: number }) =>
      appendChaosRecord(logPath, {
        p,
        e: 'rmw-fenced',
        t: Date.now(),
        s: slot,
        op,
        f: fence!.token,
        fence: r.rejected,
      });
    const checked = fence?.checked === true ? fence : undefined;
    const read = checked === undefined ? readCounter(dir, slot) : await fenced(dir, slot, owner, checked);
    if ('rejected' in read) return rejected('read', read);
    await options.hold?.();
    const wrote = { value: read.value + 1, by: token };
    if (checked === undefined) writeCounter(dir, slot, token, wrote);
    else {
      const w = await fenced(dir, slot, owner, checked, wrote);
      if ('rejected' in w) return rejected('write', w);
    }
    const f = fence === undefined ? {} : { f: fence.token };
    appendChaosRecord(logPath, { p, e: 'rmw', t: Date.now(), s: slot, read, wrote, ...f });
  } finally {
    if (k > 1) unlinkSync(claimPath(dir, slot));
  }
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

/**
 * A shared holder's read of slot `s`'s counter (`critsec chaos locks`, a shared name): plain, or
 * — with a checked `fence` — through the fencing-aware counter under h-out-of-k's resource rule:
 * rejected (`{ rejected }`, and logged `rmw-fenced` by the caller) when a read-modify-write under
 * a higher token was accepted (`fenceX`: an exclusive holder is the only conflicting mode), and
 * raising `fence` otherwise (so a later read-modify-write under a lower token is rejected).
 */
export function sharedRead(
  dir: string,
  s: number,
  owner: string,
  fence: RmwFence | undefined,
): Promise<CounterContent | { rejected: number }> {
  if (fence?.checked !== true) return Promise.resolve(readCounter(dir, s));
  return underStoreLock(dir, s, owner, () => {
    const c = readCounter(dir, s);
    if (!admits(c.fenceX, fence.token)) return { rejected: c.fenceX! };
    const raised = Math.max(c.fence ?? fence.token, fence.token);
    if (raised !== c.fence) writeCounter(dir, s, `${owner}/read`, { ...c, fence: raised });
    return c;
  });
}
