/** The README's example (`test/client.test.ts` runs it against a service and checks it is the README's block). */
import { createLockClient } from '@critsec/client';

const locks = createLockClient({ baseUrl: 'http://127.0.0.1:7070' }); // `critsec node --serve 127.0.0.1:7070`
let stock = 10; // stands for a resource that needs the lock: a file, a row, a device…
const sell = () =>
  locks.request('stock', async (lock) => {
    const left = stock; // read…
    await new Promise((r) => setTimeout(r, 5)); // …think…
    stock = left - 1; // …write: no other holder of 'stock' in between, through any member
    return lock.token; // the fencing token (members with `fencing`): hand it to the resource
  });
const tokens = await Promise.all([sell(), sell(), sell()]);
const free = await locks.request('stock', { ifAvailable: true }, (lock) => lock !== null);
console.log(stock, tokens.length, free); // 7 3 true
await locks.close();
