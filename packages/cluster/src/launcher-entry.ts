/**
 * Which program a cluster member runs when `launchCluster` is given no `entry`: this package's
 * one member main (`member-main`), from the build (`dist/member-main.js`) or, in the monorepo
 * without a build, from its TypeScript source through tsx with the `@critsec/source` export
 * condition.
 *
 * A test run may name a prebuilt, self-contained member main in the environment variable
 * {@link MEMBER_MAIN_ENV} (the root vitest configuration bundles `member-main.ts` once per run):
 * loading one bundled file costs a member a fraction of what compiling every source through tsx
 * does. It runs only `critsec` members whose algorithm is a descriptor name: a member that
 * imports a module of the user's (an algorithm or workload by path, which may be TypeScript and
 * imports `@critsec/*` itself) keeps the default, so that one copy of each package runs in it.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { namesAModule } from './algorithm-name.js';

/** The environment variable naming a prebuilt member main (an absolute path to an ES module). */
export const MEMBER_MAIN_ENV = 'CRITSEC_MEMBER_MAIN';

/** A member program and the Node flags to run it with. */
export interface MemberEntry {
  /** The script Node runs. */
  readonly entry: string;
  /** Node options placed before it. */
  readonly execArgv: readonly string[];
}

/**
 * The default member program of a launch: the prebuilt member main of {@link MEMBER_MAIN_ENV}
 * for a `critsec` member running an algorithm by name when that variable is set, else this
 * package's member main (the build, or the TypeScript source through tsx).
 *
 * @param member - the `--member` the launch passes (`modules` or `critsec`).
 * @param algorithm - the configuration's `algorithm`.
 * @param env - the environment to read {@link MEMBER_MAIN_ENV} from (default `process.env`).
 */
export function defaultMemberEntry(
  member: 'modules' | 'critsec',
  algorithm: string,
  env: NodeJS.ProcessEnv = process.env,
): MemberEntry {
  const prebuilt = env[MEMBER_MAIN_ENV];
  if (prebuilt !== undefined && prebuilt !== '' && member === 'critsec' && !namesAModule(algorithm)) {
    return { entry: prebuilt, execArgv: [] };
  }
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const tsx = createRequire(here).resolve('tsx');
    return {
      entry: fileURLToPath(new URL('./member-main.ts', here)),
      execArgv: ['--conditions=@critsec/source', '--import', new URL(`file://${tsx}`).href],
    };
  }
  return { entry: fileURLToPath(new URL('./member-main.js', here)), execArgv: [] };
}
