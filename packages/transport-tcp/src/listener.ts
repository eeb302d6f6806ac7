/**
 * The listener: a TCP server whose connections pass admission control (admission.ts), then a
 * TLS 1.3 server that requires a client certificate from the cluster CA (none in insecure mode);
 * failed TLS handshakes are counted as refusals; every accepted socket goes to the handshake
 * (handshake.ts).
 */
import net from 'node:net';
import tls from 'node:tls';
import { TransportError } from '@critsec/core';
import { remoteOf } from './connection.js';
import type { Admission } from './admission.js';
import type { TransportContext } from './context.js';
import type { RefusalReason } from './stats.js';

/** Classifies a TLS handshake failure for the refusal counters. */
export function classifyTlsError(err: Error & { code?: string }): RefusalReason {
  const text = `${err.code ?? ''} ${err.message}`;
  if (/timeout/i.test(text)) return 'handshake-timeout';
  if (/CERT|certificate|UNKNOWN_CA|unknown ca/i.test(text)) return 'certificate';
  return 'tls';
}

/**
 * Creates the (not yet listening) server of this process; `accept` gets each socket that passed
 * TLS (with a verified client certificate) or, in insecure mode, each TCP connection. Every TCP
 * connection goes through `admission` first (admission.ts): refused ones never reach TLS. The
 * listening socket is a plain TCP server in both modes; with TLS, admitted sockets are handed to
 * a TLS server that never listens itself (Node's documented `'connection'` injection), so no
 * unauthenticated socket is counted against the authenticated connections.
 */
export function createListener(
  ctx: TransportContext,
  admission: Admission,
  accept: (socket: net.Socket) => void,
): net.Server {
  const o = ctx.options;
  if (!o.secure) {
    return withErrors(
      ctx,
      net.createServer((socket) => {
        if (admission.admit(socket)) accept(socket);
      }),
    );
  }
  const tlsServer = tls.createServer(
    {
      ca: o.tls!.ca,
      cert: o.tls!.cert,
      key: o.tls!.key,
      requestCert: true,
      rejectUnauthorized: true,
      minVersion: 'TLSv1.3',
      handshakeTimeout: o.handshakeTimeoutMs,
    },
    (socket) => accept(socket),
  );
  tlsServer.on('tlsClientError', (err: Error & { code?: string }, socket: tls.TLSSocket) => {
    // With rejectUnauthorized, Node destroys a client whose certificate fails verification
    // and records why in authorizationError; the error itself is then a bare reset.
    const authError = socket.authorizationError as unknown;
    // Otherwise a socket closed before TLS completed (by its client, or by admission control on
    // timeout, counted there) has no address left: not a refusal of its own.
    if (!authError && socket.remoteAddress === undefined && err.code === 'ECONNRESET') return;
    const reason = authError ? 'certificate' : classifyTlsError(err);
    // Admission control's own timeout (≤ handshakeTimeoutMs) counts every TLS handshake that
    // takes too long, exactly once.
    if (reason === 'handshake-timeout') return void socket.destroy();
    const why = authError ? `client certificate rejected (${String(authError)})` : err.message;
    ctx.refuseUnauthenticated(reason, `TLS handshake from ${remoteOf(socket)} failed: ${why}`);
    socket.destroy();
  });
  return withErrors(
    ctx,
    net.createServer((socket) => {
      if (admission.admit(socket)) tlsServer.emit('connection', socket);
    }),
  );
}

/** Reports the server's errors (after it listens) as transport errors. */
function withErrors(ctx: TransportContext, server: net.Server): net.Server {
  server.on('error', (err) => ctx.emitError(new TransportError(`P${ctx.self} listener: ${err.message}`)));
  return server;
}

/**
 * Binds `server` to this process's address (`listenHost`, default its own `host`, and its port).
 * @throws TransportError if the address cannot be bound.
 */
export function listen(ctx: TransportContext, server: net.Server): Promise<void> {
  const me = ctx.options.peers.find((p) => p.id === ctx.self)!;
  const host = ctx.options.listenHost ?? me.host;
  return new Promise<void>((resolve, reject) => {
    const onError = (err: Error) =>
      reject(
        new TransportError(`P${ctx.self} cannot listen on ${host}:${me.port}: ${err.message}`, {
          cause: err,
        }),
      );
    server.once('error', onError);
    server.listen(me.port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}
