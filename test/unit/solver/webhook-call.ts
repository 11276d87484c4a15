/**
 * Calls a running solver webhook over HTTPS as the tests' callers do: anyone (no client
 * certificate), or the front proxy (the test PKI's admin certificate, as the aggregator's).
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import type { Pki } from '../../cluster/certs.js';

/** One request to the webhook. */
export interface Call {
  method?: string;
  path: string;
  body?: unknown;
  /** Present the front proxy's client certificate. */
  proxyCert?: boolean;
  headers?: Record<string, string | string[]>;
}

/** The answer: status and the JSON body. */
export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** Sends `c` to the webhook on `port`, trusting the PKI's CA. */
export function callWebhook(port: number, pki: Pki, c: Call): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: c.path,
        method: c.method ?? 'GET',
        ca: readFileSync(pki.caCert),
        ...(c.proxyCert
          ? { cert: readFileSync(pki.adminCert), key: readFileSync(pki.adminKey) }
          : {}),
        headers: { 'content-type': 'application/json', ...c.headers },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(c.body === undefined ? undefined : JSON.stringify(c.body));
  });
}

/** cert-manager's ServiceAccount as the front proxy names it. */
export const CERT_MANAGER = {
  'X-Remote-User': 'system:serviceaccount:cert-manager:cert-manager',
  'X-Remote-Group': ['system:serviceaccounts', 'system:authenticated'],
};

/** A ChallengePayload around `request`. */
export function payload(request: Record<string, unknown>): Record<string, unknown> {
  return { apiVersion: 'webhook.acme.cert-manager.io/v1alpha1', kind: 'ChallengePayload', request };
}
