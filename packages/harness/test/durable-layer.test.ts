import type { CSEvents, DurableCSObject, JsonValue, Message } from '@critsec/core';
import { memoryDisk, memoryStore } from '@critsec/store';
import { SimNetwork } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { CS_RECORD, DurableLayer } from '../src/index.js';

/** The smallest durable object the layer needs: a counter of handled messages. */
function counterObject(state: { handled: number }): DurableCSObject {
  return {
    durableState: (): JsonValue => ({ handled: state.handled }),
    on:
      <E extends keyof CSEvents>(_e: E, _fn: (v: CSEvents[E]) => void) =>
      () => {},
  } as unknown as DurableCSObject;
}

function setup(syncTime: number | number[]) {
  const net = new SimNetwork({ n: 2 });
  net.ackAfterCommit(1);
  const disk = memoryDisk();
  const store = memoryStore(disk, { cluster: 't', member: 1, mode: 'create' });
  const draws = Array.isArray(syncTime) ? [...syncTime] : undefined;
  const layer = new DurableLayer(net, 1, store, () => draws?.shift() ?? (syncTime as number));
  const state = { handled: 0 };
  const ep = layer.endpoint(net.endpoint(1));
  const acks: number[] = [];
  net.endpoint(0).onMessage((_f, m) => acks.push((m as Message & { k: number }).k));
  ep.onMessage((_f, m) => {
    state.handled++;
    ep.send(0, { type: 'ACK', k: (m as Message & { k: number }).k });
  });
  layer.attach(counterObject(state));
  return { net, disk, store, layer, acks, state };
}

describe('the durable layer (transactional outbox)', () => {
  it("holds a step's sends until its commit is durable, then sends and acknowledges", async () => {
    const { net, disk, acks } = setup(3);
    net.endpoint(0).send(1, { type: 'M', k: 1 });
    await net.run({ until: 2 }); // handled at t = 1, commit due at t = 4
    expect(acks).toEqual([]);
    await net.run();
    expect(acks).toEqual([1]);
    const again = memoryStore(disk, { cluster: 't', member: 1, mode: 'recover' });
    expect(again.load().records.get(CS_RECORD)?.value).toEqual({ handled: 1 });
  });

  it('a crash between a step and its commit loses the write and the sends; the message is delivered again', async () => {
    const { net, disk, layer, acks } = setup(3);
    net.endpoint(0).send(1, { type: 'M', k: 7 });
    await net.run({ until: 2 });
    const loss = layer.crash();
    net.crash(1);
    expect(loss).toEqual({ unsyncedSteps: 1, droppedSends: 1 });
    await net.run();
    expect(acks).toEqual([]);
    disk.restart();
    const store = memoryStore(disk, { cluster: 't', member: 1, mode: 'recover' });
    expect(store.load().records.get(CS_RECORD)).toBeUndefined(); // the write was lost
    const redelivered: number[] = [];
    net.restart(1).onMessage((_f, m) => redelivered.push((m as Message & { k: number }).k));
    await net.run();
    expect(redelivered).toEqual([7]);
    expect(net.crashCounters().redelivered).toBe(1);
  });

  it('a commit releases the sends of every step staged before it, not only of the batch whose sync ran out', async () => {
    const { net, layer, acks } = setup([3, 9]);
    net.endpoint(0).send(1, { type: 'M', k: 1 }); // handled at t = 1, its sync ends at t = 4
    await net.run({ until: 1.5 });
    net.endpoint(0).send(1, { type: 'M', k: 2 }); // handled at t = 2.5, its own sync would end at 11.5
    await net.run({ until: 4.5 });
    // the commit at t = 4 wrote the state of both steps: both ACKs left with it
    expect(layer.idle).toBe(true);
    await net.run({ until: 6 });
    expect(acks).toEqual([1, 2]);
  });

  it('with a sync time of 0 the commit is in the same instant; a crash after it loses nothing', async () => {
    const { net, layer, acks } = setup(0);
    net.endpoint(0).send(1, { type: 'M', k: 2 });
    await net.run();
    expect(acks).toEqual([2]);
    expect(layer.idle).toBe(true);
    expect(layer.crash()).toEqual({ unsyncedSteps: 0, droppedSends: 0 });
    net.crash(1);
    expect(net.inFlight).toBe(0); // acknowledged: nothing goes back
  });
});
