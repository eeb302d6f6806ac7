/**
 * `@critsec/cluster/member` — the workload of a `critsec` cluster member as a workload module of
 * `@critsec/cluster` clusters: name it in a cluster configuration
 * (`"workload": { "rounds": 15, "thinkMs": 2, "holdMs": 1, "module": "@critsec/cluster/member", "settings": { "seed": 3 } }`)
 * and the launcher's members run the same concurrent workload as `critsec cluster` and
 * `critsec node`: `rounds` counted rounds of entry and exit from the member's initial state,
 * with think (OutCS) and hold (InCS) times drawn uniformly from [0, 2·mean] ms (seeded); then
 * the member keeps cycling, uncounted, until every member has finished its rounds — so a finished
 * member never blocks the others, which an (l,k)-CS with l ≥ 1 needs — and withdraws its
 * uncounted call in flight through the abort signal. Every call goes through `ctx.entry` /
 * `ctx.exit`, so the shared-log check sees it. Light: it loads none of the algorithms.
 *
 * (`critsec node` also offers the `sequential` workload, which needs every member's message
 * counts; a module run by another member program cannot have them, so it is `critsec`'s only.)
 *
 * @example
 * ```ts
 * import { createLocalCluster, launchCluster } from '@critsec/cluster';
 *
 * const cluster = await createLocalCluster({
 *   dir: '/tmp/my-cluster',
 *   n: 5,
 *   algorithm: '/abs/path/my-mutex.js', // exports createFactory(params, { n, initial })
 *   workload: { rounds: 20, thinkMs: 2, holdMs: 1, module: '@critsec/cluster/member', settings: { seed: 7 } },
 * });
 * const result = await launchCluster({ configPath: cluster.path }).done;
 * console.log(result.ok, result.reports.map((r) => r?.rounds)); // true [ 20, 20, 20, 20, 20 ]
 * ```
 *
 * @packageDocumentation
 */
import { ConfigurationError } from '@critsec/core';
import * as v from 'valibot';
import { memberWorkload } from './member-workload.js';
import type { ClusterWorkloadContext } from './member-workload-contract.js';

const settingsSchema = v.strictObject({
  seed: v.optional(v.pipe(v.number(), v.safeInteger(), v.minValue(0))),
});

/** What the configuration's `workload.settings` holds for this module (all optional). */
export interface MemberWorkloadSettings {
  /** Seed of the think and hold times, an integer ≥ 0 (default 1). */
  seed?: number | undefined;
}

/** Holds when the schema's output and the documented interface are the same type (checked by `tsc`). */
type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const settingsMatchInterface: SameType<v.InferOutput<typeof settingsSchema>, MemberWorkloadSettings> = true;
void settingsMatchInterface;

/**
 * Runs `critsec`'s concurrent member workload (see the module comment) with the configuration's
 * `rounds`, `thinkMs` (default 2 ms) and `holdMs` (default 1 ms) and `settings.seed`
 * (default 1); resolves to `rounds` once every member has finished its rounds.
 *
 * @throws ConfigurationError for `settings` that are not `{ seed? }` with a non-negative integer
 *   seed.
 */
export async function runWorkload(ctx: ClusterWorkloadContext): Promise<number> {
  const parsed = v.safeParse(settingsSchema, ctx.workload.settings ?? {});
  if (!parsed.success) {
    const issue = parsed.issues[0]!;
    const path = issue.path?.map((x) => String(x.key)).join('.') ?? '';
    throw new ConfigurationError(
      `@critsec/cluster/member: workload.settings${path ? `.${path}` : ''}: ${issue.message}; settings holds { seed? } (a non-negative integer)`,
    );
  }
  return memberWorkload({ seed: parsed.output.seed ?? 1 }).run(ctx);
}
