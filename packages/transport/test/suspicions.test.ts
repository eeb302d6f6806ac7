/**
 * `RootEndpoint.suspicions` (issue 28 §4): the graceful leave marks a peer at once, the link's
 * failure detector marks and clears it, and listeners hear every change.
 */
import type { Message, ProcessId } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import { createEndpoint, type EndpointOptions, type Link } from '../src/index.js';

/** Two in-memory links; the test flushes deliveries and drives P_0's detector and gone hooks by hand. */
function pair(options: EndpointOptions = {}) {
  const queue: [ProcessId, ProcessId, string, Message][] = [];
  const receivers: ((from: ProcessId, channel: string, msg: Message) => void)[] = [];
  let gone: (peer: ProcessId) => void = () => {};
  let suspect: (peer: ProcessId, suspected: boolean) => void = () => {};
  const link = (self: ProcessId): Link => {
    const l: Link = {
      self,
      peers: [0, 1],
      send: (to, channel, msg) => {
        queue.push([self, to, channel, msg]);
      },
      setReceiver: (fn) => {
        receivers[self] = fn;
      },
    };
    if (self !== 0) return l;
    return {
      ...l,
      setPeerGone: (fn) => {
        gone = fn;
      },
      setSuspect: (fn) => {
        suspect = fn;
      },
    };
  };
  const eps = [createEndpoint(link(0), options), createEndpoint(link(1), options)];
  const flush = () => {
    while (queue.length > 0) {
      const [from, to, ch, msg] = queue.shift()!;
      receivers[to]!(from, ch, msg);
    }
  };
  return {
    eps,
    flush,
    gone: (p: ProcessId) => gone(p),
    suspect: (p: ProcessId, s: boolean) => suspect(p, s),
  };
}

describe('RootEndpoint.suspicions', () => {
  it('a peer that announced LEAVING is suspected at once, and trusted again when the link reports it back', async () => {
    const { eps, flush, suspect } = pair();
    const changes: ProcessId[][] = [];
    eps[0]!.suspicions.onChange(() => changes.push([...eps[0]!.suspicions.suspected()]));
    expect(eps[0]!.suspicions.suspected().size).toBe(0);
    void eps[1]!.leave({ lingerMs: 0 }).catch(() => {});
    flush();
    expect([...eps[0]!.suspicions.suspected()]).toEqual([1]);
    suspect(1, false); // its session is back (a restarted member)
    expect(changes).toEqual([[1], []]);
    expect(eps[1]!.suspicions.suspected().size).toBe(0); // nobody told P_1 anything
  });

  it("a peer gone for good is suspected at once; the detector's marks come and go; a set is never changed in place", () => {
    const { eps, gone, suspect } = pair();
    const s = eps[0]!.suspicions;
    const before = s.suspected();
    suspect(1, true);
    const during = s.suspected();
    expect([...during]).toEqual([1]);
    expect(before.size).toBe(0);
    let calls = 0;
    const off = s.onChange(() => calls++);
    suspect(1, true); // no change, no call
    expect(calls).toBe(0);
    suspect(1, false);
    gone(1);
    expect([...s.suspected()]).toEqual([1]);
    expect(calls).toBe(2);
    off();
    suspect(1, false);
    expect(calls).toBe(2);
    expect([...during]).toEqual([1]);
    suspect(0, true); // itself: never
    expect(s.suspected().size).toBe(0);
  });

  it("a listener's exception goes to onHandlerError and the other listeners still hear the change", () => {
    const errors: unknown[] = [];
    const { eps, suspect } = pair({ onHandlerError: (e) => errors.push(e) });
    let heard = 0;
    eps[0]!.suspicions.onChange(() => {
      throw new Error('boom');
    });
    eps[0]!.suspicions.onChange(() => heard++);
    suspect(1, true);
    expect(heard).toBe(1);
    expect(errors).toHaveLength(1);
    const bare = pair();
    bare.eps[0]!.suspicions.onChange(() => {
      throw new Error('bare');
    });
    expect(() => bare.suspect(1, true)).toThrow('bare');
  });
});
