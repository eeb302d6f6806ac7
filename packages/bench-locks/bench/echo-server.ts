/**
 * The far end of the raw round trips (run by src/tcp-echo.ts as its own OS process): a loopback
 * server that writes back every byte it reads, Nagle off — plain TCP, or with `--tls <dir>`
 * mutual TLS 1.3 with the certificates of process 0 in `<dir>` (`ca.pem`, `p0.cert.pem`,
 * `p0.key.pem`), clients required to present a certificate of the same CA. Prints its port on
 * stdout, then serves until killed.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createServer as createTlsServer } from 'node:tls';

const { values } = parseArgs({ options: { tls: { type: 'string' } } });

const echo = (socket: Socket) => {
  socket.setNoDelay(true);
  socket.on('data', (chunk) => socket.write(chunk));
  socket.on('error', () => socket.destroy());
};

const dir = values.tls;
const server =
  dir === undefined
    ? createServer(echo)
    : createTlsServer(
        {
          ca: readFileSync(join(dir, 'ca.pem')),
          cert: readFileSync(join(dir, 'p0.cert.pem')),
          key: readFileSync(join(dir, 'p0.key.pem')),
          requestCert: true,
          rejectUnauthorized: true,
          minVersion: 'TLSv1.3',
        },
        echo,
      );
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('echo server: no TCP address');
  process.stdout.write(`${address.port}\n`);
});
