/*
 * The per-name check of a chaos run of named locks (`critsec chaos locks`, launcher-chaos-locks.ts),
 * from the shared log and one counter per name, as Jepsen checks a lock service.
 *
 * The member (launcher-chaos-locks-member.ts) appends, in its callback of `request(name, …)`,
 * `lock-held` first (the name's index `x`, the mode, the round, the fencing token `f`), then its
 * work, then `lock-release` last — so it certainly holds the lock between the two lines: the
 * grant came before the callback ran, the release comes after the callback returns. A member holds
 * one lock at a time. The launcher's `crashed` line (and a new incarnation's `start`) ends what the
 * member held (a killed member is InCS no more).
 *
 * - **Overlap**, per name, at each `lock-held` line (the holders of a name only grow there): an
 *   exclusive holder beside any other holder, or more than k shared holders, is a violation —
 *   sound, as the shared-log check is (shared-log.ts): every one reported happened. An overlap is
 *   *explained* (`expiredOverlaps`, no violation) when one of its holds ended with its grant
 *   expired (`lock-release` with `expired`: a pause past the ttl; with time bounds exclusion of
 *   the code is not promised, exclusion of effects is — the lost-update check's).
 * - **Lost updates**, per name: exclusive holders read-modify-write the name's counter (the `rmw`
 *   records of slot `x`); chaos-check.ts's `slotUpdates` counts the completed writes missing from
 *   the final counter. Shared holders only read.
 * - **Fencing** (tokens: `fencing` or a `ttl`), per name: a `lock-held` still valid once written
 *   (no `lock-late` of the same member, name and token) must carry a token above every earlier
 *   valid record's of a **conflicting** mode — an exclusive one above every earlier valid token of
 *   the name, a shared one above every earlier valid exclusive one (h-out-of-k orders conflicting
 *   holders only; Maekawa's names are all exclusive: chaos-fencing.ts's rule). Sound by the
 *   argument of chaos-fencing.ts. `expiredGrants`: holds whose grant had expired at their
 *   release; `staleRejected`: operations the fencing-aware counter refused (`rmw-fenced`).
 */
import { readFileSync } from 'node:fs';
import { slotUpdates } from './chaos-check.js';
import type { ChaosLogRecord, CounterContent } from './launcher-chaos-rmw.js';

/** A lock's mode in the records. */
export type LockRecordMode = 'exclusive' | 'shared';

/** A record a locks chaos member appends to the shared log. */
export type LockLogRecord =
  | {
      /** The member. */
      readonly p: number;
      /** The callback of a granted request began: the member holds name `x` from here on. */
      readonly e: 'lock-held';
      /** Wall-clock ms (informational; the order of lines is what counts). */
      readonly t: number;
      /** The name's index (the name is `name-<x>`; its counter is slot `x`). */
      readonly x: number;
      /** The mode held. */
      readonly m: LockRecordMode;
      /** The member's round. */
      readonly r: number;
      /** The fencing token (the run's epoch × 2³² + the grant's token), with `fencing` or a `ttl`. */
      readonly f?: number;
      /** The time left of the grant, ms (`null` without a ttl). */
      readonly remainingMs?: number | null;
    }
  | {
      /** The member. */
      readonly p: number;
      /** The holder found its grant expired once its `lock-held` was written: no evidence of the token order. */
      readonly e: 'lock-late';
      /** Wall-clock ms (informational). */
      readonly t: number;
      /** The name's index. */
      readonly x: number;
      /** The member's round. */
      readonly r: number;
      /** The fencing token of that `lock-held`. */
      readonly f: number;
    }
  | {
      /** The member. */
      readonly p: number;
      /** The callback's work is over; the release follows when it returns. */
      readonly e: 'lock-release';
      /** Wall-clock ms (informational). */
      readonly t: number;
      /** The name's index. */
      readonly x: number;
      /** The member's round. */
      readonly r: number;
      /** The grant had expired (its `remaining()` ≤ 0) by then. */
      readonly expired?: true;
    };

/** A line of the shared log the check reads: a lock record, or the launcher's `crashed` / a member's `start`. */
export type LockLogLine =
  | LockLogRecord
  | {
      /** The member. */
      readonly p: number;
      /** The launcher saw it die (`crashed`), or a new incarnation began (`start`): it holds nothing. */
      readonly e: 'crashed' | 'start';
      /** Wall-clock ms (informational). */
      readonly t: number;
    };

/** What {@link checkLocks} reads. */
export interface LocksCheckInput {
  /** The lock records and the `crashed` / `start` lines, in file order ({@link readLockLines}). */
  readonly lines: readonly LockLogLine[];
  /** The `rmw` and `rmw-fenced` records (`readChaosRecords`); slot `x` is name `x`'s counter. */
  readonly chaos: readonly ChaosLogRecord[];
  /** Each name's counter at the end, by name index. */
  readonly counters: readonly CounterContent[];
  /** At most this many shared holders of a name together (the manager's k). */
  readonly k: number;
}

/** The check of one name. */
export interface NameCheck {
  /** Holds (`lock-held` lines). */
  readonly holds: number;
  /** Of them, exclusive holds. */
  readonly exclusive: number;
  /** Of them, shared holds. */
  readonly shared: number;
  /** Overlaps (an exclusive holder beside another, or more than k shared) no expired grant explains. */
  readonly violations: number;
  /** Overlaps an expired grant explains. */
  readonly expiredOverlaps: number;
  /** Read-modify-writes completed (logged, and seen without a record). */
  readonly completedRmws: number;
  /** Completed writes missing from the name's final counter. */
  readonly lostUpdates: number;
  /** Valid tokens not above an earlier valid one of a conflicting mode. */
  readonly fencingViolations: number;
  /** Holds whose grant expired before their release. */
  readonly expiredGrants: number;
  /** Operations the fencing-aware counter rejected. */
  readonly staleRejected: number;
}

/** What {@link checkLocks} finds: per name, and the totals. */
export interface LocksCheck extends Omit<NameCheck, 'holds' | 'violations'> {
  /** Per name, by index. */
  readonly names: readonly NameCheck[];
  /** Holds in all (a hold is an entry). */
  readonly entries: number;
  /** Overlaps no expired grant explains, in all. */
  readonly safetyViolations: number;
  /** The first of them, in words. */
  readonly firstViolation: string | null;
  /** Holds with a fencing token. */
  readonly tenures: number;
  /** The first fencing violation, in words. */
  readonly firstFencingViolation: string | null;
  /** Writes seen without their record (the writer was killed between the two). */
  readonly unloggedWrites: number;
  /** `rmw` records whose write is not their read plus one, or a counter beyond its writes (a broken workload). */
  readonly malformedRmws: number;
  /** The longest wall-clock interval with no hold begun in the whole cluster, ms. */
  readonly longestStallMs: number;
}

const LINE_EVENTS: ReadonlySet<string> = new Set([
  'lock-held',
  'lock-late',
  'lock-release',
  'crashed',
  'start',
]);

/** The lock records and the `crashed` / `start` lines of a shared log file, in file order. */
export function readLockLines(path: string): LockLogLine[] {
  const out: LockLogLine[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!/"e":"(lock-|crashed|start)/.test(line)) continue;
    try {
      const r = JSON.parse(line) as LockLogLine;
      if (LINE_EVENTS.has(r.e)) out.push(r);
    } catch {
      // a torn line (a member killed mid-write cannot tear an O_APPEND line; nothing to count)
    }
  }
  return out;
}

interface Hold {
  readonly p: number;
  readonly m: LockRecordMode;
  /** Its release said the grant had expired. */
  readonly expired: boolean;
}

/** Whether the holders of one name break the rule: an exclusive one beside another, or more than k shared. */
function broken(holders: Iterable<Hold>, k: number): boolean {
  let exclusive = 0;
  let all = 0;
  for (const h of holders) {
    all++;
    if (h.m === 'exclusive') exclusive++;
  }
  return (exclusive > 0 && all > 1) || all - exclusive > k;
}

/** For each `lock-held` line, whether its hold's release said expired. */
function expiredHolds(lines: readonly LockLogLine[]): Set<number> {
  const open = new Map<number, number>();
  const expired = new Set<number>();
  lines.forEach((r, i) => {
    if (r.e === 'lock-held') open.set(r.p, i);
    else if (r.e === 'lock-release' && open.has(r.p)) {
      if (r.expired === true) expired.add(open.get(r.p)!);
      open.delete(r.p);
    } else if (r.e === 'crashed' || r.e === 'start') open.delete(r.p);
  });
  return expired;
}

interface Tally {
  holds: number;
  exclusive: number;
  shared: number;
  violations: number;
  expiredOverlaps: number;
  fencingViolations: number;
  /** The highest valid token of any mode, and of an exclusive hold. */
  highest: number;
  highestX: number;
}

/** The overlap and fencing scan over the lines (see the module comment). */
function scan(input: LocksCheckInput, names: number) {
  const t: Tally[] = Array.from({ length: names }, () => ({
    holds: 0,
    exclusive: 0,
    shared: 0,
    violations: 0,
    expiredOverlaps: 0,
    fencingViolations: 0,
    highest: Number.NEGATIVE_INFINITY,
    highestX: Number.NEGATIVE_INFINITY,
  }));
  const held = Array.from({ length: names }, () => new Map<number, Hold>());
  const expired = expiredHolds(input.lines);
  const late = new Set<string>();
  for (const r of input.lines) if (r.e === 'lock-late') late.add(`${r.p}/${r.x}/${r.f}`);
  let firstViolation: string | null = null;
  let firstFencing: string | null = null;
  let tenures = 0;
  input.lines.forEach((r, i) => {
    if (r.e === 'crashed' || r.e === 'start') for (const h of held) h.delete(r.p);
    if (r.e === 'lock-release') held[r.x]?.delete(r.p);
    if (r.e !== 'lock-held' || t[r.x] === undefined) return;
    const n = t[r.x]!;
    n.holds++;
    n[r.m === 'exclusive' ? 'exclusive' : 'shared']++;
    held[r.x]!.set(r.p, { p: r.p, m: r.m, expired: expired.has(i) });
    const holders = [...held[r.x]!.values()];
    if (broken(holders, input.k)) {
      if (holders.some((h) => h.expired)) n.expiredOverlaps++;
      else {
        n.violations++;
        firstViolation ??= `name-${r.x}: ${holders.map((h) => `P${h.p} (${h.m})`).join(', ')} hold it together at shared-log line ${i + 1}`;
      }
    }
    if (r.f === undefined) return;
    tenures++;
    if (late.has(`${r.p}/${r.x}/${r.f}`)) return;
    const above = r.m === 'exclusive' ? n.highest : n.highestX;
    if (r.f <= above) {
      n.fencingViolations++;
      firstFencing ??= `name-${r.x}: P${r.p} held it (${r.m}) with token ${r.f}, not above ${above}, an earlier conflicting holder's`;
      return;
    }
    n.highest = Math.max(n.highest, r.f);
    if (r.m === 'exclusive') n.highestX = Math.max(n.highestX, r.f);
  });
  return { t, firstViolation, firstFencing, tenures };
}

/** The longest gap between consecutive `lock-held` lines, ms. */
function longestStall(lines: readonly LockLogLine[]): number {
  const times = lines.filter((r) => r.e === 'lock-held').map((r) => r.t);
  let longest = 0;
  for (let i = 1; i < times.length; i++) longest = Math.max(longest, times[i]! - times[i - 1]!);
  return longest;
}

const sum = (xs: readonly NameCheck[], f: (c: NameCheck) => number) => xs.reduce((a, c) => a + f(c), 0);

/** Checks a chaos run of named locks, per name (see the module comment). */
export function checkLocks(input: LocksCheckInput): LocksCheck {
  const count = input.counters.length;
  const { t, firstViolation, firstFencing, tenures } = scan(input, count);
  let unloggedWrites = 0;
  let malformedRmws = 0;
  const names: NameCheck[] = t.map((n, x) => {
    const u = slotUpdates(input.chaos, x, input.counters[x]!);
    unloggedWrites += u.unlogged;
    malformedRmws += u.malformed;
    const expiredGrants = input.lines.filter((r) => r.e === 'lock-release' && r.x === x && r.expired).length;
    const staleRejected = input.chaos.filter((r) => r.e === 'rmw-fenced' && r.s === x).length;
    return {
      holds: n.holds,
      exclusive: n.exclusive,
      shared: n.shared,
      violations: n.violations,
      expiredOverlaps: n.expiredOverlaps,
      completedRmws: u.completed,
      lostUpdates: u.lost,
      fencingViolations: n.fencingViolations,
      expiredGrants,
      staleRejected,
    };
  });
  return {
    names,
    entries: sum(names, (c) => c.holds),
    exclusive: sum(names, (c) => c.exclusive),
    shared: sum(names, (c) => c.shared),
    safetyViolations: sum(names, (c) => c.violations),
    firstViolation,
    expiredOverlaps: sum(names, (c) => c.expiredOverlaps),
    completedRmws: sum(names, (c) => c.completedRmws),
    unloggedWrites,
    malformedRmws,
    lostUpdates: sum(names, (c) => c.lostUpdates),
    tenures,
    fencingViolations: sum(names, (c) => c.fencingViolations),
    firstFencingViolation: firstFencing,
    expiredGrants: sum(names, (c) => c.expiredGrants),
    staleRejected: sum(names, (c) => c.staleRejected),
    longestStallMs: longestStall(input.lines),
  };
}
