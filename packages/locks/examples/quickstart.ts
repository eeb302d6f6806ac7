import { createLockManager } from '@critsec/locks';
import { SimNetwork } from '@critsec/transport-sim';

const n = 3; // three members on the simulated network (any transport works the same way)
const net = new SimNetwork({ n, seed: 1 });
const clock = { now: () => net.now, setTimer: (d: number, fn: () => void) => net.schedule(d, fn) };
const locks = [0, 1, 2].map((id) =>
  createLockManager({ endpoint: net.endpoint(id), id, n, clock, shared: ['db'] }),
);
let counter = 0; // a read-modify-write that needs the lock
const writes = locks.map((m) =>
  m.request('counter', async () => {
    const v = counter;
    await net.sleep(1);
    counter = v + 1;
  }),
);
const reads = locks.map((m) => m.request('db', { mode: 'shared' }, (lock) => `${lock.mode}@${net.now}`));
const busy = locks[0]!.request('counter', { ifAvailable: true }, (lock) => lock); // this member already waits
await net.run();
await Promise.all(writes);
console.log(counter, await Promise.all(reads), await busy); // 3 [ 'shared@2', 'shared@2', 'shared@4' ] null — k = n − 1 = 2 readers at once
