/**
 * The far end of the raw TCP round trip (run by src/tcp-echo.ts as its own OS process): a
 * loopback TCP server that writes back every byte it reads, Nagle off. Prints its port on
 * stdout, then serves until killed.
 */
import { createServer } from 'node:net';

const server = createServer((socket) => {
  socket.setNoDelay(true);
  socket.on('data', (chunk) => socket.write(chunk));
  socket.on('error', () => socket.destroy());
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('echo server: no TCP address');
  process.stdout.write(`${address.port}\n`);
});
