/**
 * The fingerprint of a Secret-sourced value the platform never returns (a registry password,
 * a log-forwarding token, an edge script's secret): `sha256:` and the hex SHA-256 digest of a
 * scope naming what the value is for, the object's uid and the value. Status keeps it to tell
 * that a Secret now holds another value (rotation) without keeping the value. The uid salts it:
 * the same value under two objects gives two fingerprints, and a fingerprint copied from one
 * object's status says nothing about another's Secret. A digest cannot be turned back into the
 * value.
 */
import { createHash } from 'node:crypto';

/** The fingerprint of `value` for `scope` (e.g. `containerregistry`) and the object `uid`. */
export function fingerprintSecretValue(
  scope: string,
  uid: string | undefined,
  value: string,
): string {
  const hash = createHash('sha256').update(`${scope}/${uid ?? ''}\u0000${value}`);
  return `sha256:${hash.digest('hex')}`;
}
