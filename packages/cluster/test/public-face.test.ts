import { describe, expect, it } from 'vitest';
import * as cluster from '../src/index.js';

describe('@critsec/cluster: the public face is what a user composes with (issue 25)', () => {
  it('exports exactly these values; option parsers, footprint tables and log writers stay inside', () => {
    expect(Object.keys(cluster).sort()).toEqual([
      'ALGORITHMS',
      'ChaosStuckError',
      'WORKLOAD_NAMES',
      'checkChaos',
      'checkLocks',
      'checkSharedLog',
      'clusterArguments',
      'createLocalCluster',
      'findAlgorithm',
      'launchCluster',
      'loadClusterConfig',
      'memberStorePath',
      'parseClusterConfig',
      'readChaosRecords',
      'readLockLines',
      'readSharedLog',
      'resolveCluster',
      'resolveClusterRun',
      'resolveRun',
      'roundsWorkload',
      'runChaos',
      'runClusterNode',
      'runLocalCluster',
      'runLocksChaos',
      'runNode',
      'serveMetrics',
      'transportOptionsFor',
      'withAlgorithmModule',
    ]);
  });
});
