import { runWorkload as fromCluster } from '@critsec/cluster/member';
import { describe, expect, it } from 'vitest';
import * as cli from '../src/index.js';

describe('what moved to @critsec/cluster stays importable from @critsec/cli', () => {
  it('@critsec/cli/member is the member workload module of @critsec/cluster/member', async () => {
    const mod = (await import('@critsec/cli/member')) as Record<string, unknown>;
    expect(mod.runWorkload).toBe(fromCluster);
  });

  it('the registry and the member runtime are re-exported unchanged', async () => {
    const cluster = (await import('@critsec/cluster')) as Record<string, unknown>;
    const names = ['resolveCluster', 'paperBounds', 'buildCoterie', 'runNode', 'clusterFromConfig'];
    for (const name of names) expect((cli as Record<string, unknown>)[name], name).toBe(cluster[name]);
  });
});
