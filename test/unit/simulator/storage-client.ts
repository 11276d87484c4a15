/**
 * A raw client of cdn-sim's storage endpoint for the tests: node:http (or https), so a test can
 * send the platform's `DESCRIBE` method and choose the `Host` header (the region check).
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { ExecutionContext } from 'ava';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { call } from '../../support/sim-client.js';

/** One storage call. */
export interface StorageCall {
  method: string;
  /** URL path, `/<zone>/<path>`, already percent-encoded. */
  path: string;
  key?: string;
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** `Host` header (default: the listener's address). */
  host?: string;
  /** CA certificate to trust (HTTPS). */
  ca?: string;
}

/** What the endpoint answered. */
export interface StorageAnswer {
  status: number;
  text: string;
  contentType: string;
  json: () => unknown;
}

/** Sends one request to the simulator's storage endpoint. */
export function storageCall(sim: SimulatorHandle, c: StorageCall): Promise<StorageAnswer> {
  const base = new URL(sim.storageUrl!);
  const send = base.protocol === 'https:' ? httpsRequest : httpRequest;
  const headers: Record<string, string> = { ...c.headers };
  if (c.key !== undefined) headers.AccessKey = c.key;
  if (c.host !== undefined) headers.Host = c.host;
  return new Promise((resolve, reject) => {
    const req = send(
      {
        hostname: base.hostname,
        port: base.port,
        path: c.path,
        method: c.method,
        headers,
        ...(c.ca ? { ca: c.ca } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            text,
            contentType: String(res.headers['content-type'] ?? ''),
            json: () => JSON.parse(text) as unknown,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(c.body);
  });
}

/** A new storage zone: its name, id and passwords. */
export interface ZoneAccess {
  id: number;
  name: string;
  password: string;
  readOnlyPassword: string;
}

/** Creates a storage zone through the API and returns what the storage endpoint needs. */
export async function createStorageZone(
  t: ExecutionContext,
  sim: SimulatorHandle,
  name: string,
  region = 'DE',
): Promise<ZoneAccess> {
  const res = await call(t, sim, {
    area: 'core',
    method: 'POST',
    template: '/storagezone',
    body: { Name: name, Region: region, ZoneTier: 0 },
  });
  t.is(res.status, 201, JSON.stringify(res.body));
  const zone = res.body as { Id: number; Password: string; ReadOnlyPassword: string };
  return {
    id: zone.Id,
    name,
    password: zone.Password,
    readOnlyPassword: zone.ReadOnlyPassword,
  };
}
