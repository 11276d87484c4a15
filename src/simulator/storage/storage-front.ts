/**
 * The public side of the storage listener. The platform's storage API has a `DESCRIBE` method
 * (a file's object, sent by the vendor's Terraform provider and the platform's storage
 * libraries), which Node's HTTP parser refuses. So the public listener is a small front (plain
 * TCP, or TLS with the caller's certificate) that renames `DESCRIBE` to `PROPFIND` (same length,
 * a method the storage API does not use) at the start of each connection and pipes the bytes to
 * the internal HTTP server on loopback. The internal server closes every connection after its
 * answer, so each request starts a connection and passes the front.
 */
import { connect, createServer as createNetServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { readFileSync } from 'node:fs';

/** The method the front renames `DESCRIBE` to; the internal server reads it back as DESCRIBE. */
export const DESCRIBE_ALIAS = 'PROPFIND';

const DESCRIBE = Buffer.from('DESCRIBE ');

/** PEM certificate and key files of a TLS front. */
export interface TlsFiles {
  certFile: string;
  keyFile: string;
}

/** The first bytes of a connection with a leading `DESCRIBE ` renamed. */
export function renameDescribe(head: Buffer): Buffer {
  if (head.length < DESCRIBE.length || !head.subarray(0, DESCRIBE.length).equals(DESCRIBE))
    return head;
  return Buffer.concat([Buffer.from(`${DESCRIBE_ALIAS} `), head.subarray(DESCRIBE.length)]);
}

/** Reads until the request line's method is complete, then pipes the connection inward. */
function forward(client: Socket, internalPort: number): void {
  let head = Buffer.alloc(0);
  const onData = (chunk: Buffer): void => {
    head = Buffer.concat([head, chunk]);
    if (head.length < DESCRIBE.length && !head.includes(0x20)) return;
    client.off('data', onData);
    client.pause();
    const upstream = connect(internalPort, '127.0.0.1', () => {
      upstream.write(renameDescribe(head));
      client.pipe(upstream).pipe(client);
      client.resume();
    });
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
  };
  client.on('data', onData);
  client.on('error', () => client.destroy());
}

/** A front that forwards to the internal server's port; TLS when `tls` is given. */
export function createFront(internalPort: number, tls: TlsFiles | undefined): Server {
  if (!tls) return createNetServer((socket) => forward(socket, internalPort));
  const options = { cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) };
  return createTlsServer(options, (socket) => forward(socket, internalPort));
}
