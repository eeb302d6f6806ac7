/**
 * A durable member's run (issue 27), what member-runtime.ts calls when the configuration has
 * `durability`: open the store (`create`, or `recover` with `--recover`), the layer over the
 * transport (member-durable.ts), the first commit before the transport starts, and after a
 * restart the CS object's `recover()` before the workload.
 */
import { ConfigurationError, type CSObject, type JsonValue, type ProcessId } from '@critsec/core';
import type { ProtocolStore } from '@critsec/store';
import type { TcpTransport } from '@critsec/transport-tcp';
import type { LoadedClusterConfig } from './config-cluster.js';
import type { NodeWatch } from './member-deadlines.js';
import {
  durableObject,
  MemberDurableLayer,
  type MemberRecovered,
  openMemberStore,
} from './member-durable.js';

/** A member's durable side: its layer, what its store held (with `--recover`), its start and its recovery. */
export interface DurableMember {
  /** The durable layer (build every channel on its endpoint). */
  readonly layer: MemberDurableLayer;
  /** The committed records, after `--recover`. */
  readonly recovered: MemberRecovered | undefined;
  /**
   * Attaches the CS object and the runtime's state and commits them once, before the transport
   * starts. @throws ConfigurationError when the object has no crash recovery; StoreError when the
   * commit fails.
   */
  begin(cs: CSObject<unknown>, member: () => JsonValue): Promise<void>;
  /** After `--recover`, once the transport is ready: `recover()` of the CS object; watches the commits. */
  recover(watch: NodeWatch): Promise<void>;
}

/**
 * Opens member `id`'s store if the configuration has `durability` (undefined otherwise).
 * @throws ConfigurationError for `--recover` without `durability`; StoreError as
 *   `openMemberStore`.
 */
export async function openDurable(
  loaded: LoadedClusterConfig,
  id: ProcessId,
  recover: boolean,
): Promise<{ store: ProtocolStore; recovered: MemberRecovered | undefined } | undefined> {
  if (loaded.config.durability === undefined) {
    if (!recover) return undefined;
    throw new ConfigurationError(
      `--recover needs a cluster configuration with durability { dir }, and ${loaded.path} has none`,
    );
  }
  return openMemberStore(loaded, id, recover);
}

/** The durable side of member `id` over its opened store and its transport (built with `onPeerRestart: 'resume'`). */
export function durableMember(
  id: ProcessId,
  opened: { store: ProtocolStore; recovered: MemberRecovered | undefined },
  transport: TcpTransport,
  algorithm: string,
): DurableMember {
  if (transport.durability === undefined) {
    throw new ConfigurationError(
      `cluster config: durability needs transport.onPeerRestart 'resume' (its default with durability)`,
    );
  }
  const layer = new MemberDurableLayer(id, opened.store, transport.durability);
  let object: ReturnType<typeof durableObject> | undefined;
  return {
    layer,
    recovered: opened.recovered,
    async begin(cs, member) {
      object = durableObject(cs, algorithm);
      layer.attach(object, member);
      await layer.commitNow();
    },
    async recover(watch) {
      watch.failWith(layer.failed);
      if (opened.recovered !== undefined && object !== undefined) await watch.race(object.recover());
    },
  };
}

/** The barrier states a member persisted (record `member`), by barrier. */
export function barrierStates(member: JsonValue | undefined): Record<'START' | 'DONE' | 'BYE', unknown> {
  const m = typeof member === 'object' && member !== null && !Array.isArray(member) ? member : {};
  return { START: m.START, DONE: m.DONE, BYE: m.BYE };
}
