/**
 * `@critsec/cli/member` — the workload of a `critsec` cluster member as a cluster workload
 * module. It moved to `@critsec/cluster/member` (issue 13); this subpath re-exports it so that
 * configurations naming `"module": "@critsec/cli/member"` keep working.
 *
 * @packageDocumentation
 */
export { type MemberWorkloadSettings, runWorkload } from '@critsec/cluster/member';
