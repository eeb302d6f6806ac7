import { describe, expect, it } from 'vitest';
import { defaultMemberEntry, MEMBER_MAIN_ENV } from '../src/launcher-entry.js';

const BUNDLE = '/tmp/prebuilt/member-main.mjs';

describe('defaultMemberEntry: which program a member runs without an entry of the caller', () => {
  it('without a prebuilt member main: the TypeScript source through tsx (the monorepo, unbuilt)', () => {
    for (const env of [{}, { [MEMBER_MAIN_ENV]: '' }]) {
      const e = defaultMemberEntry('critsec', 'gcs', env);
      expect(e.entry).toMatch(/[/\\]cluster[/\\]src[/\\]member-main\.ts$/);
      expect(e.execArgv[0]).toBe('--conditions=@critsec/source');
      expect(e.execArgv.slice(1, 2)).toEqual(['--import']);
      expect(e.execArgv[2]).toMatch(/^file:.*tsx/);
    }
  });

  it('a prebuilt member main runs critsec members whose algorithm is a descriptor name, with no flags', () => {
    const env = { [MEMBER_MAIN_ENV]: BUNDLE };
    expect(defaultMemberEntry('critsec', 'gcs', env)).toEqual({ entry: BUNDLE, execArgv: [] });
    expect(defaultMemberEntry('critsec', 'maekawa', env)).toEqual({ entry: BUNDLE, execArgv: [] });
  });

  it("but not a member that imports a module of the user's: one copy of each package runs in it", () => {
    const env = { [MEMBER_MAIN_ENV]: BUNDLE };
    for (const algorithm of ['/abs/descriptor.ts', './rel.js', '@scope/algo', 'algo.mjs', 'dir/algo']) {
      expect(defaultMemberEntry('critsec', algorithm, env).entry).not.toBe(BUNDLE);
    }
    // `modules` members load the algorithm (and the workload) by path
    expect(defaultMemberEntry('modules', 'gcs', env).entry).toMatch(/member-main\.ts$/);
  });
});
