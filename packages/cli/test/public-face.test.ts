import { describe, expect, it } from 'vitest';
import * as cli from '../src/index.js';

describe('@critsec/cli: the public face is what a user composes with (issue 25)', () => {
  it('exports exactly these values; size tables, progress bars and the cluster re-exports stay out', () => {
    expect(Object.keys(cli).sort()).toEqual([
      'EXIT',
      'benchJSON',
      'clusterReplayCommand',
      'formatBenchMarkdown',
      'formatFamilyBench',
      'formatSummary',
      'main',
      'replayCommand',
      'resolveBench',
      'resolveSimulation',
      'runBench',
      'runCluster',
      'runFamilyBench',
      'runSimulation',
      'writeCertificates',
    ]);
  });
});
