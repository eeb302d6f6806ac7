import { ConfigurationError, type CSState, initialConfiguration, type ProcessContext } from '@critsec/core';

/**
 * The process ids InCS in the initial configuration `ctx.initial`, after checking its shape:
 * `n` states, each `'InCS'` or `'OutCS'` (issue 15: a wrong length or an unknown state used to
 * be accepted). Internal to `@critsec/mutex`.
 * @param who the factory's name, prefixed to the message.
 * @throws ConfigurationError naming the length or the offending process and state.
 */
export function initialHolders(who: string, ctx: Pick<ProcessContext, 'n' | 'initial'>): number[] {
  // every process of a cluster shares one `initial`: checked once, not n times (O(n²) at n = 10,000)
  const seen = checked.get(ctx.initial);
  if (seen !== undefined && seen.n === ctx.n) return [...seen.holders];
  const holders = checkInitial(who, ctx);
  if (typeof ctx.initial === 'object' && ctx.initial !== null)
    checked.set(ctx.initial, { n: ctx.n, holders });
  return [...holders];
}

/** The holders of each `initial` array already checked, with the `n` it was checked for. */
const checked = new WeakMap<
  readonly CSState[],
  { readonly n: number; readonly holders: readonly number[] }
>();

function checkInitial(who: string, ctx: Pick<ProcessContext, 'n' | 'initial'>): number[] {
  let states: CSState[];
  try {
    states = initialConfiguration(ctx.n, ctx.initial);
  } catch (err) {
    if (err instanceof ConfigurationError) throw new ConfigurationError(`${who}: ${err.message}`);
    throw err;
  }
  return states.flatMap((s, i) => (s === 'InCS' ? [i] : []));
}
