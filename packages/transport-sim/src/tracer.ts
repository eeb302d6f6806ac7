/**
 * The JSON-lines trace (DESIGN.md 3.2, "observable"; determinism is checked by comparing
 * traces byte for byte), written in one place. One line per send, delivery, timer firing and
 * caller note, each stamped with the virtual time `t`:
 *
 * - `{"t","e":"send","from","to","ch","m"}` — `m` is the whole message;
 * - `{"t","e":"deliver","from","to","ch","type"}`;
 * - `{"t","e":"timer","label"}`;
 * - `{"t","e":"note",...record}`.
 *
 * Frames of the session layer under faults are not traced: the trace shows what the
 * algorithms see.
 */
import type { Message, ProcessId } from '@critsec/core';

/** Writes trace lines to a sink, or nothing when tracing is off. */
export class Tracer {
  /** The recorded lines, when the option was `true`. */
  readonly lines: string[] = [];
  readonly #sink: ((line: string) => void) | undefined;
  readonly #clock: { readonly now: number };

  /**
   * @param option `true` keeps the lines in {@link lines}; a function receives each line; else off.
   * @param clock where the time stamps come from.
   */
  constructor(option: boolean | ((line: string) => void) | undefined, clock: { readonly now: number }) {
    this.#sink =
      option === true ? (line) => this.lines.push(line) : typeof option === 'function' ? option : undefined;
    this.#clock = clock;
  }

  /** A message was sent (after counting, before it enters the link stack). */
  send(from: ProcessId, to: ProcessId, channel: string, msg: Message): void {
    if (this.#sink !== undefined) {
      this.#sink(JSON.stringify({ t: this.#clock.now, e: 'send', from, to, ch: channel, m: msg }));
    }
  }

  /** A message reaches its receiver (counted, before its handler runs). */
  deliver(from: ProcessId, to: ProcessId, channel: string, msg: Message): void {
    if (this.#sink !== undefined) {
      this.#sink(
        JSON.stringify({
          t: this.#clock.now,
          e: 'deliver',
          from,
          to,
          ch: channel,
          type: (msg as Message | null)?.type,
        }),
      );
    }
  }

  /** A timer fires (before its callback runs). */
  timer(label: string): void {
    if (this.#sink !== undefined) this.#sink(JSON.stringify({ t: this.#clock.now, e: 'timer', label }));
  }

  /** A caller record (e.g. a state change). */
  note(record: Record<string, unknown>): void {
    if (this.#sink !== undefined) this.#sink(JSON.stringify({ t: this.#clock.now, e: 'note', ...record }));
  }
}
