/**
 * The choices of a controlled schedule (issue 26 §2), kept in lanes so that one changed choice
 * changes one event — what lets the worst-case search climb.
 */
import type { Rng } from '@critsec/transport-sim';

/** How many priorities an event of the `'order'` space may get (one base-36 digit). */
export const PRIORITIES = 36;

/**
 * The choices of one schedule, kept in **lanes** so that changing one choice changes one event:
 * lane `m<from>-<to>` holds the choice of each message from → to in send order (its priority in
 * the `'order'` space, its delay's index in the `'timing'` space), `p<i>` the choice of each call
 * of P_i (the priority of its invocation, or its pause's index), `r<i>` the request of each entry
 * of P_i. A choice is read from the given lanes (modulo the options offered), else drawn from
 * `rng`, else 0; the choices made are recorded ({@link used}) and replay the run.
 */
export class ScheduleChoices {
  readonly #given: ReadonlyMap<string, readonly number[]>;
  readonly #rng: Rng | undefined;
  readonly #used = new Map<string, number[]>();

  /** `given`: lane → choices (see {@link ScheduleChoices}); past a lane's end, `rng` draws (or 0). */
  constructor(given: ReadonlyMap<string, readonly number[]> = new Map(), rng?: Rng) {
    this.#given = given;
    this.#rng = rng;
  }

  /** The next choice of `lane` among `count` options (0-based); with one option, 0, recorded all the same. */
  pick(lane: string, count: number): number {
    let used = this.#used.get(lane);
    if (used === undefined) {
      used = [];
      this.#used.set(lane, used);
    }
    const given = this.#given.get(lane);
    const t = used.length;
    const raw = given !== undefined && t < given.length ? given[t]! : (this.#rng?.int(count) ?? 0);
    const c = count <= 1 ? 0 : raw % count;
    used.push(c);
    return c;
  }

  /** The choices made, lane by lane (lanes in the order first used). */
  get used(): ReadonlyMap<string, readonly number[]> {
    return this.#used;
  }
}
