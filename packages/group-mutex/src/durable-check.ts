/**
 * The checks both variants' recovered states share (issue 27, crash recovery): a list of a node's
 * requests names only processes and groups whose quorum holds the node, and no request twice.
 */
import { ConfigurationError, type ProcessContext, type ProcessId } from '@critsec/core';
import * as v from 'valibot';
import type { QuorumPlan } from './plan.js';

/** True if process `p` may have a request of group `g` at this node (`g` a group, the node in quorumOf(p, g)). */
export type Role = (p: ProcessId, g: number) => boolean;

/**
 * The first reason `list` is not a list of requests this node can hold, or null.
 * @param key what makes two entries the same request (default: the whole tuple)
 */
export function checkList<T extends readonly number[]>(
  name: string,
  list: readonly T[],
  role: Role,
  at: { readonly p: number; readonly g: number } = { p: 0, g: 1 },
  key: (t: T) => string = (t) => t.join(),
): string | null {
  const seen = new Set<string>();
  for (const t of list) {
    const [p, g] = [t[at.p]!, t[at.g]!];
    if (!role(p, g)) return `${name} names P${p}, group ${g}, whose quorum does not hold this node`;
    const k = key(t);
    if (seen.has(k)) return `${name} repeats a request`;
    seen.add(k);
  }
  return null;
}

/**
 * A variant's recovered state, checked: its shape (`schema`), that it is this process's of this
 * cluster and group count, then `incoherence` (the first reason it is not a state the variant's
 * figures can reach, or null).
 * @throws ConfigurationError naming the reason and the way out.
 */
export function parseGroupDurable<S extends { readonly id: number; readonly n: number; readonly m: number }>(
  variant: 'Maekawa_M' | 'Maekawa_S',
  format: string,
  schema: v.GenericSchema,
  recovered: unknown,
  ctx: ProcessContext,
  plan: QuorumPlan,
  incoherence: (s: S) => string | null,
): S {
  const parsed = v.safeParse(schema, recovered);
  let why: string | null;
  if (!parsed.success) {
    const issue = parsed.issues[0];
    why = `not a ${format} state (${v.getDotPath(issue) ?? '(root)'}: ${issue.message})`;
  } else {
    const s = parsed.output as S;
    why =
      s.id !== ctx.id || s.n !== ctx.n || s.m !== plan.m
        ? `it is P${s.id}'s of a cluster of ${s.n} with ${s.m} groups`
        : incoherence(s);
    if (why === null) return s;
  }
  throw new ConfigurationError(
    `groupMutex (${variant}): P${ctx.id} cannot resume from its recovered state: ${why}. Give it the state its own store committed last (same cluster, group quorum system and process); if that state is lost, the process must not rejoin as new — it would forget the locks it granted (see "Crash recovery" in the @critsec/group-mutex README)`,
  );
}
