/**
 * The checks both variants' recovered states share (issue 27, crash recovery): a list of a node's
 * requests names only processes and groups whose quorum holds the node, and no request twice.
 */
import type { ProcessId } from '@critsec/core';

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
