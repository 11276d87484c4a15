/**
 * AccessKey and admin-token checks. Keys are compared in constant time; their values are
 * never logged (only a key's index is).
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** A configured API key and its roles (roles are data; every key may call every route). */
export interface ApiKeyConfig {
  key: string;
  roles?: string[];
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Constant-time string comparison (hashes first so lengths do not leak). */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Resolves the AccessKey header to a configured key index, or -1. */
export class KeyRing {
  private readonly digests: Buffer[];
  /** Verdicts for recently presented values, so the hash runs once per distinct value. */
  private readonly seen = new Map<string, number>();

  constructor(keys: readonly ApiKeyConfig[]) {
    this.digests = keys.map((k) => digest(k.key));
  }

  /** Index of the key in the AccessKey header, -1 when absent or unknown (constant time per key). */
  authenticate(headers: IncomingHttpHeaders): number {
    const presented = headerValue(headers, 'accesskey');
    if (!presented) return -1;
    const cached = this.seen.get(presented);
    if (cached !== undefined) return cached;
    const wanted = digest(presented);
    let found = -1;
    this.digests.forEach((d, i) => {
      if (timingSafeEqual(d, wanted) && found < 0) found = i;
    });
    if (this.seen.size >= 256) this.seen.clear();
    this.seen.set(presented, found);
    return found;
  }
}

/** True when the admin token header matches. */
export function isAdmin(headers: IncomingHttpHeaders, adminToken: string): boolean {
  const presented = headerValue(headers, 'x-sim-admin-token');
  return presented !== undefined && safeEqual(presented, adminToken);
}
