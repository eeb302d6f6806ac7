/** Message formatting shared by validators and errors. Internal to the package. */
import type { ProcessId } from '@critsec/core';

/** `{1, 4, 7}`; long sets are shortened to their first members and their size. */
export function formatSet(members: readonly ProcessId[], max = 12): string {
  if (members.length <= max) return `{${members.join(', ')}}`;
  return `{${members.slice(0, max - 1).join(', ')}, …, ${members[members.length - 1]}} (${members.length} processes)`;
}

/** `{2, 2, 3}` for a bag of unit counts. */
export function formatBag(bag: readonly number[]): string {
  return `{${bag.join(', ')}}`;
}

/** Two nearest values of a sorted list around `x` (the one below and the one above), for error hints. */
export function nearest(sorted: readonly number[], x: number): number[] {
  let below: number | undefined;
  let above: number | undefined;
  for (const v of sorted) {
    if (v < x) below = v;
    else if (v > x && above === undefined) above = v;
  }
  return [below, above].filter((v): v is number => v !== undefined);
}
