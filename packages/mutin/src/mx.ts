/*
 * MUTIN's inner mutual exclusion `mx` (Kamei & Kakugawa, IJNC 9(2), 2019, Sec. 4: the CS object
 * that serializes Exit() calls): built on the channel `mx` of the process's endpoint with every
 * process OutCS of it — or, when the process resumes after a crash (issue 27), from the state
 * nested in MUTIN's record, which only a durable `mx` can take.
 */
import {
  ConfigurationError,
  type CSFactory,
  type CSObject,
  isDurableCSObject,
  type ProcessContext,
} from '@critsec/core';
import type { MutinDurableState } from './mutin-durable.js';

/**
 * Builds process `ctx.id`'s `mx` (resumed from `restored.mx` when given) and checks it.
 * @throws ConfigurationError (the object made is closed) unless it is a plain mutual exclusion
 *   object of this process, OutCS when fresh; when restored, unless it is durable and its state
 *   agrees with MUTIN's phase (held exactly while the leaver queries or retracts, never idle).
 */
export function buildMx(ctx: ProcessContext, factory: CSFactory, restored?: MutinDurableState): CSObject {
  const mx = factory({
    id: ctx.id,
    n: ctx.n,
    endpoint: ctx.endpoint.channel('mx'),
    initial: Object.freeze(Array.from({ length: ctx.n }, () => 'OutCS' as const)),
    ...(ctx.clock === undefined ? {} : { clock: ctx.clock }), // a time-bounded mx needs it (issue 28)
    ...(ctx.suspicions === undefined ? {} : { suspicions: ctx.suspicions }),
    ...(restored === undefined ? {} : { recovered: restored.mx }),
  });
  let why: string | null = null;
  if (mx.takesRequest || mx.id !== ctx.id || (mx.state !== 'OutCS' && restored === undefined)) {
    why =
      `mx must be a plain mutual exclusion factory (no request) that starts every process ` +
      `OutCS; for P${ctx.id} it made P${mx.id} ${mx.state}${mx.takesRequest ? ' taking a request' : ''}`;
  } else if (restored !== undefined && !isDurableCSObject(mx)) {
    why = `P${ctx.id} was given a recovered state, but its mx is not durable (no DurableCSObject): MUTIN over it cannot resume after a crash`;
  } else if (restored !== undefined) {
    const holds = restored.phase === 'query' || restored.phase === 'acquire';
    if ((holds && mx.state !== 'InCS') || (restored.phase === 'idle' && mx.state !== 'OutCS')) {
      why = `P${ctx.id} cannot resume from its recovered state: mx is ${mx.state} in phase ${restored.phase}. Give it the state its own store committed last`;
    }
  }
  if (why === null) return mx;
  void mx.close();
  throw new ConfigurationError(`mutin: ${why}`);
}
