/**
 * The shapes the simulator's layers hand each other (DESIGN.md 3.2): a message with the caller
 * context captured at its send, and the three kinds of event that wait for their time — a
 * message (faults off), a raw frame (faults on, below the session layer) and a timer.
 */
import type { Message, ProcessId } from '@critsec/core';
import type { SessionFrame } from '@critsec/transport';
import type { SimEvent } from './event-queue.js';

/** A message in flight. */
export interface SimMessage {
  /** The sender. */
  readonly from: ProcessId;
  /** The receiver. */
  readonly to: ProcessId;
  /** Channel path (`''` is the root channel). */
  readonly channel: string;
  /** The message. */
  readonly msg: Message;
}

/**
 * A message as the link stack carries it: with the caller context captured when it was sent,
 * under which its handler will run (see `CausalContext`).
 */
export interface Envelope extends SimMessage {
  readonly ctx: unknown;
}

/** A message waiting to arrive (faults off): its `time` is its arrival time. */
export interface MsgEvent extends SimEvent, Envelope {
  readonly kind: 'message';
}

/** A raw frame of the session layer waiting to arrive (faults on). */
export interface FrameEvent extends SimEvent {
  readonly kind: 'frame';
  readonly from: ProcessId;
  readonly to: ProcessId;
  readonly frame: SessionFrame<Envelope>;
}

/** A timer: `fn` runs at `time` under the context captured when it was set, unless cancelled. */
export interface TimerEvent extends SimEvent {
  readonly kind: 'timer';
  /** Names the timer in `pending()` and in the trace. */
  readonly label: string;
  readonly fn: () => void;
  readonly ctx: unknown;
  cancelled: boolean;
}

/** What arrives at the bottom of the link stack. */
export type LinkEvent = MsgEvent | FrameEvent;

/** Anything that waits in the simulator. */
export type QueuedEvent = LinkEvent | TimerEvent;

/** Where the link stack and the timers put events: the delivery policy holds them. */
export interface EventSink {
  enqueue(ev: QueuedEvent): void;
  /**
   * Queues a message arriving at `time`: the same as `enqueue` of the message event with these
   * fields, which a sink may keep without making the object (the scheduler's in-order lane).
   */
  enqueueMessage(
    time: number,
    seq: number,
    from: ProcessId,
    to: ProcessId,
    channel: string,
    msg: Message,
    ctx: unknown,
  ): void;
  /**
   * {@link enqueueMessage} of a message arriving `delay` time units from now (the sum made where
   * it is stored: no arrival time to box on the way).
   */
  enqueueMessageIn(
    delay: number,
    seq: number,
    from: ProcessId,
    to: ProcessId,
    channel: string,
    msg: Message,
    ctx: unknown,
  ): void;
}

/** The top of the link stack: where a message sent by a process enters. */
export interface LinkTop {
  send(m: MsgEvent): void;
  /**
   * The same as `send` of the message event with these fields (sent now, number `seq`), for a
   * sender that does not need the object: a stack may carry the fields without making it.
   */
  sendMessage(seq: number, from: ProcessId, to: ProcessId, channel: string, msg: Message, ctx: unknown): void;
}

/** The bottom of the link stack: where the delivery policy hands an event whose time has come. */
export interface LinkBottom {
  arrive(ev: LinkEvent): void;
}

/** The process-facing end a message leaves the link stack by (the one deliver path). */
export interface Deliverer {
  deliver(m: Envelope): void;
  /** The same as `deliver` of the envelope with these fields (no object needed). */
  deliverMessage(from: ProcessId, to: ProcessId, channel: string, msg: Message, ctx: unknown): void;
}
