/**
 * Registers a secret the client is about to send (a registry password, a syslog token) with
 * the transport in the forms an error text could echo it in: as it is and JSON-escaped (an
 * echoed request body).
 */
import type { HttpTransport } from './http.js';

/** Registers `value` and its JSON-escaped form as secrets of `http`. */
export function registerSentSecret(http: HttpTransport, value: string | null | undefined): void {
  if (typeof value !== 'string') return;
  http.registerSecret(value);
  http.registerSecret(JSON.stringify(value).slice(1, -1));
}
