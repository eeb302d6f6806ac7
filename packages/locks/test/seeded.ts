/**
 * One seeded run of the lock managers over the simulator: each member runs two request loops at
 * once (so a member's own requests queue too), each round a random name, mode and kind of request
 * (plain, ifAvailable, timeout, abort), holding for a random time; half the requests also
 * reclaim the idle names of a random member while the others run. Checked: the monitor per name
 * (0 violations), every loop finished (0 stuck), and afterwards every instance idle everywhere
 * (nothing held or queued at any arbiter), the cluster-wide `query()` empty.
 *
 * With `crashStop` a random member crash-stops at a random time early in the run, the network's
 * failure detector suspecting it 2 time units later: its own loops are excused from "stuck",
 * "nothing left" is not checked (the live arbiters may keep its requests), and the query is asked
 * at a live member. The run is then bounded (400 time units, then 50 for the query): the crashed
 * member's own entries wait for ever, and with a ttl their keep-alive timers (h-out-of-k's F3
 * while waiting) go on firing — the simulator's timers do not stop at a crash — so the network
 * never runs out of events.
 */
import { createRng } from '@critsec/core';
import { HolderCheck, settled, simLocks } from './sim.js';

export interface SeededOptions {
  readonly n: number;
  readonly names: number;
  readonly rounds: number;
  /** Names s0, s1, … are shared (h-out-of-k with k units), x0, x1, … exclusive-only. */
  readonly sharedNames: number;
  readonly k: number;
  /** Crash-stop one random member (see the module comment). */
  readonly crashStop?: boolean;
  /** The managers' `reselect` and `ttl`. */
  readonly reselect?: boolean;
  readonly ttl?: number;
}

export interface SeededResult {
  readonly violations: readonly string[];
  readonly stuck: number;
  readonly grants: number;
  readonly nulls: number;
  readonly timeouts: number;
  readonly aborts: number;
  /** Instances still live after `reclaimIdle()` at the end (something held or queued). */
  readonly leftover: number;
  readonly maxShared: number;
  /** The member crash-stopped, if any. */
  readonly crashed: number | undefined;
}

export async function seededRun(seed: number, o: SeededOptions): Promise<SeededResult> {
  const isShared = (name: string) => name.startsWith('s');
  const { net, managers } = simLocks(
    o.n,
    seed,
    {
      shared: isShared,
      k: o.k,
      ...(o.reselect === undefined ? {} : { reselect: o.reselect }),
      ...(o.ttl === undefined ? {} : { ttl: o.ttl }),
    },
    o.crashStop === true ? 2 : undefined,
  );
  const check = new HolderCheck(o.n, { k: o.k, shared: isShared, now: () => net.now });
  const rng = createRng(seed).fork('locks');
  // forked only with crashStop: the other runs draw exactly what they drew before
  const crashRng = o.crashStop === true ? rng.fork('crash') : undefined;
  const crashed = crashRng?.int(o.n);
  if (crashed !== undefined) net.schedule(crashRng!.int(12), () => net.crash(crashed));
  const names = [
    ...Array.from({ length: o.sharedNames }, (_, i) => `s${i}`),
    ...Array.from({ length: o.names - o.sharedNames }, (_, i) => `x${i}`),
  ];
  const tally = { nulls: 0, timeouts: 0, aborts: 0, other: [] as string[] };
  let finished = 0;
  const loop = async (id: number, r: ReturnType<typeof rng.fork>) => {
    const m = managers[id]!;
    for (let round = 0; round < o.rounds; round++) {
      await net.sleep(r.int(4));
      const name = names[r.int(names.length)]!;
      const mode = isShared(name) && r.chance(0.7) ? 'shared' : 'exclusive';
      const kind = r.int(6); // 0–2 plain, 3 ifAvailable, 4 timeout, 5 abort
      const hold = r.int(5);
      const body = async (lock: { name: string; mode: 'shared' | 'exclusive' } | null) => {
        if (lock === null) {
          tally.nulls++;
          return;
        }
        check.enter(id, lock as never);
        await net.sleep(hold);
        check.exit(id, lock as never);
      };
      let p: Promise<unknown>;
      if (kind === 3) p = m.request(name, { mode, ifAvailable: true }, body);
      else if (kind === 4) p = m.request(name, { mode, timeout: 1 + r.int(8) }, body);
      else if (kind === 5) {
        const ac = new AbortController();
        net.schedule(r.int(6), () => ac.abort());
        p = m.request(name, { mode, signal: ac.signal }, body);
      } else p = m.request(name, { mode }, body);
      // reclaim idle names mid-run, here or at another member: instances come and go under load
      if (r.chance(0.5)) managers[r.int(o.n)]!.reclaimIdle();
      const out = await settled(p);
      if (!out.ok) {
        const code = (out.error as { code?: string; name?: string }).code ?? (out.error as Error).name;
        if (code === 'LOCK_TIMEOUT') tally.timeouts++;
        else if (code === 'ABORT_ERR') tally.aborts++;
        else tally.other.push(String(out.error));
      }
    }
    if (id !== crashed) finished++;
  };
  const loops = managers.flatMap((_, id) => [loop(id, rng.fork(`${id}a`)), loop(id, rng.fork(`${id}b`))]);
  await (crashed === undefined ? net.run() : net.run({ until: 400 }));
  const stuck = loops.length - (crashed === undefined ? 0 : 2) - finished;
  let leftover = 0;
  for (const m of managers) {
    m.reclaimIdle();
    if (crashed === undefined) leftover += m.live;
  }
  const q = settled(managers[crashed === 0 ? 1 : 0]!.query());
  await (crashed === undefined ? net.run() : net.run({ until: net.now + 50 }));
  const snapshot = await q;
  const violations = [...check.violations, ...tally.other];
  if (!snapshot.ok || snapshot.value.held.length + snapshot.value.pending.length > 0) {
    violations.push(`query() after the run: ${JSON.stringify(snapshot)}`);
  }
  await Promise.all(managers.map((m) => m.close()));
  return {
    violations,
    stuck,
    grants: check.grants,
    nulls: tally.nulls,
    timeouts: tally.timeouts,
    aborts: tally.aborts,
    leftover,
    maxShared: check.maxShared,
    crashed,
  };
}
