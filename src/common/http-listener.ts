/**
 * Listener plumbing shared by every server of the package (cdn-sim's API, storage and DNS
 * listeners, the health server, the DNS-01 solver's webhook): reading a request body up to a
 * size limit, and listening on a port.
 */
import type { IncomingMessage } from 'node:http';
import type { AddressInfo, Server } from 'node:net';

/** The body went past the limit (answered 413). */
export class BodyTooLarge extends Error {}

/** The whole request body; rejects with BodyTooLarge past `maxBytes`. */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) reject(new BodyTooLarge());
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Listens on `host:port` (0 = a free port) and resolves with the port. */
export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
