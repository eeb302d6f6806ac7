/**
 * The sending half of a {@link ReliableLink}'s window (DESIGN.md 3.2): payloads numbered from
 * `seq` 1, kept until a cumulative ack covers them so they can be resent. One concept — the
 * retransmission buffer — split out of `session.ts`; the link owns the frames and the stats.
 */

/**
 * Payloads with `seq` `ackedUpTo + 1 … nextSeq − 1`, buffered for resending, in `seq` order.
 * Internal to `@critsec/transport` (not exported from the package).
 */
export class SendWindow<P> {
  // Payloads seq ackedUpTo+1 … nextSeq-1 are at #buf[#head …].
  #buf: P[] = [];
  #head = 0;
  #ackedUpTo = 0;
  #nextSeq = 1;

  /** Highest `seq` the peer acknowledged (0 before any ack). */
  get ackedUpTo(): number {
    return this.#ackedUpTo;
  }

  /** The `seq` the next {@link SendWindow.push} assigns. */
  get nextSeq(): number {
    return this.#nextSeq;
  }

  /** Payloads sent but not yet acknowledged. */
  get unacked(): number {
    return this.#nextSeq - 1 - this.#ackedUpTo;
  }

  /** Buffers `payload` under the next `seq`, which it returns. */
  push(payload: P): number {
    this.#buf.push(payload);
    return this.#nextSeq++;
  }

  /** The buffered payload of `seq` (`ackedUpTo < seq < nextSeq`; not checked). */
  at(seq: number): P {
    return this.#buf[this.#head + (seq - this.#ackedUpTo - 1)] as P;
  }

  /** Frees every payload up to `ack` (cumulative; an old ack is a no-op). */
  acknowledge(ack: number): void {
    if (ack <= this.#ackedUpTo) return;
    this.#head += ack - this.#ackedUpTo;
    this.#ackedUpTo = ack;
    if (this.#head === this.#buf.length) {
      this.#buf = [];
      this.#head = 0;
    } else if (this.#head >= 1024 && this.#head * 2 >= this.#buf.length) {
      this.#buf = this.#buf.slice(this.#head);
      this.#head = 0;
    }
  }

  /** The window as it was when `nextSeq` was `end` (a durable snapshot): its ack and payloads, in `seq` order. */
  snapshot(end: number): { ackedUpTo: number; unacked: { seq: number; p: P }[] } {
    const unacked: { seq: number; p: P }[] = [];
    for (let seq = this.#ackedUpTo + 1; seq < Math.min(end, this.#nextSeq); seq++)
      unacked.push({ seq, p: this.at(seq) });
    return { ackedUpTo: Math.min(this.#ackedUpTo, end - 1), unacked };
  }

  /** Replaces everything with a restored window: `payloads` are `seq` `ackedUpTo + 1 …` (checked by the caller). */
  restore(ackedUpTo: number, payloads: readonly { readonly p: P }[]): void {
    this.#buf = payloads.map((e) => e.p);
    this.#head = 0;
    this.#ackedUpTo = ackedUpTo;
    this.#nextSeq = ackedUpTo + 1 + payloads.length;
  }

  /** Forgets everything: the next `push` gets `seq` 1 again (a session reset). */
  reset(): void {
    this.#buf = [];
    this.#head = 0;
    this.#ackedUpTo = 0;
    this.#nextSeq = 1;
  }
}
