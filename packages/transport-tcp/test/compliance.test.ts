import { transportCompliance } from '@critsec/testing/transport';
import { it } from 'vitest';
import type { TcpTransportOptions } from '../src/index.js';
import { startCluster, until } from './helpers.js';

function suite(name: string, extra: Partial<TcpTransportOptions>, chaos: boolean) {
  transportCompliance({
    it,
    name,
    n: 4,
    messages: 50,
    async setup(n) {
      const c = await startCluster(n, extra);
      let stop = false;
      let dropped = 0;
      // With chaos, a connection is destroyed every few ms while the suite's traffic flows.
      const chaosLoop = (async () => {
        while (chaos && !stop) {
          const a = Math.floor(Math.random() * n);
          const b = (a + 1 + Math.floor(Math.random() * (n - 1))) % n;
          if (c.transports[a]!.dropConnection(b)) dropped++;
          await new Promise((r) => setTimeout(r, 3));
        }
      })();
      return {
        endpoints: c.transports.map((t) => t.endpoint),
        drive: (done) =>
          until(done, `${name}: the suite's condition`, () =>
            c.transports.reduce((sum, t) => sum + t.stats.framesIn, 0),
          ),
        async teardown() {
          stop = true;
          await chaosLoop;
          if (chaos && dropped === 0) throw new Error('the chaos loop never dropped a connection');
          await c.close();
        },
      };
    },
  });
}

suite('tcp (mutual TLS)', {}, false);
suite('tcp (mutual TLS, connections destroyed every 3 ms)', {}, true);
suite('tcp (insecure loopback)', { insecure: true, tls: undefined }, false);
