/*
 * What a chaos run (launcher-chaos.ts) knows of its members while they run, from their progress
 * events: the entries completed in the whole cluster, who holds its CS now (to kill holders as
 * well as arbiters), and the progress-budgeted wait "until m more entries complete", whose only
 * deadline is a stall — no entry completed anywhere for `stallTimeoutMs`.
 */
import { AbortError, CritsecError, type ProcessId } from '@critsec/core';
import type { ClusterNodeProgress } from './member-runtime.js';

/** Where a chaos run was when it stopped making progress. */
export interface ChaosWhere {
  /** Members killed so far. */
  readonly kills: number;
  /** Restarts so far. */
  readonly restarts: number;
  /** Entries completed so far, in the whole run. */
  readonly entries: number;
}

/**
 * A chaos run stopped making progress: no entry completed in the whole cluster for its
 * `stallTimeoutMs`, or the members' run ended before the chaos was done. `code` `'CHAOS_STUCK'`;
 * the message says where (after which kill or restart) and the ways out.
 */
export class ChaosStuckError extends CritsecError {
  /** Where the run was: the kills and restarts done, the entries completed. */
  readonly where: ChaosWhere;
  /** A stuck run; `message` names the wait, the deadline and the ways out. */
  constructor(message: string, where: ChaosWhere) {
    super('CHAOS_STUCK', message);
    this.where = where;
  }
}

/**
 * The entries completed and the holders of one launch of the members. The stall clock of
 * {@link EntryWatch.until} runs once every member of the launch has been ready (connected to all
 * its peers) — a member's start is bounded by its own `readyTimeoutMs`, which ends the run — so
 * that a slow start on a loaded machine is no stall.
 */
export class EntryWatch {
  /** Entries completed since this watch began (the launch). */
  entries = 0;
  /** Members between `entry-done` and `exit-done` now. */
  readonly holders = new Set<ProcessId>();
  readonly #ready = new Set<ProcessId>();
  #waiter: (() => void) | undefined;

  /** @param members the number of members of the launch (`ready` from each starts the stall clock). */
  constructor(private readonly members: number) {}

  /** Every member of the launch has been ready. */
  get started(): boolean {
    return this.#ready.size >= this.members;
  }

  /** Takes one member progress event. */
  see(p: ClusterNodeProgress): void {
    if (p.event === 'ready') {
      const before = this.started;
      this.#ready.add(p.id);
      if (!before && this.started) this.#waiter?.();
    } else if (p.event === 'entry-done') {
      this.entries++;
      this.holders.add(p.id);
      this.#waiter?.();
    } else if (p.event === 'exit-done') {
      this.holders.delete(p.id);
    }
  }

  /** A member died: it holds nothing now. */
  forget(id: ProcessId): void {
    this.holders.delete(id);
  }

  /**
   * Resolves once `target` entries completed since the launch. Rejects with
   * {@link ChaosStuckError} when no entry completes for `stallTimeoutMs` ms once every member has
   * been ready (`what` names the place), or when `ended` resolves first (the members' run ended: `ended`'s reason), and with
   * `AbortError` on `signal`.
   */
  until(
    target: number,
    o: {
      readonly stallTimeoutMs: number;
      readonly what: () => string;
      readonly ended: Promise<string>;
      readonly signal?: AbortSignal | undefined;
      readonly where: () => ChaosWhere;
      /** The run directory (its shared log), named in the error. */
      readonly dir: string;
    },
  ): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let settled = false;
      const done = (err?: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.#waiter = undefined;
        o.signal?.removeEventListener('abort', onAbort);
        if (err) reject(err);
        else resolve();
      };
      const arm = () => {
        clearTimeout(timer);
        if (!this.started) return; // the members' own readyTimeoutMs bounds the start
        timer = setTimeout(
          () =>
            done(
              new ChaosStuckError(
                `no entry completed in the whole cluster for ${o.stallTimeoutMs} ms ${o.what()}; raise stallTimeoutMs (critsec chaos --stall-timeout) if the machine is only slow, else the algorithm is wedged: read the shared log in ${o.dir}`,
                o.where(),
              ),
            ),
          o.stallTimeoutMs,
        );
      };
      const onAbort = () => done(new AbortError('chaos run aborted', { cause: o.signal?.reason }));
      if (o.signal?.aborted) return onAbort();
      o.signal?.addEventListener('abort', onAbort);
      void o.ended.then((reason) =>
        done(
          new ChaosStuckError(
            `the members' run ended ${o.what()} before the chaos was done: ${reason}; read the members' errors above and the shared log in ${o.dir}`,
            o.where(),
          ),
        ),
      );
      this.#waiter = () => {
        if (this.entries >= target) done();
        else arm();
      };
      this.#waiter();
    });
  }
}
