import { exponentialDelay, SimNetwork } from '@critsec/transport-sim';
import { describe, it } from 'vitest';
import { transportCompliance } from '../src/transport.js';

const simSetup =
  (options: { faults?: { drop: number; duplicate: number } } = {}) =>
  async (n: number) => {
    const net = new SimNetwork({ n, seed: 4, delay: exponentialDelay(1), ...options });
    return {
      endpoints: net.endpoints(),
      drive: async (done: () => boolean) => {
        await net.run({ stopWhen: done });
      },
      teardown: async () => net.close(),
    };
  };

describe('the simulated network passes the transport compliance suite', () => {
  transportCompliance({ it, name: 'sim', setup: simSetup() });
  transportCompliance({
    it,
    name: 'sim with faults below the session layer',
    setup: simSetup({ faults: { drop: 0.2, duplicate: 0.2 } }),
  });
});
