/**
 * DNSSEC of a zone (`POST`/`DELETE /dnszone/{id}/dnssec`, both answering DnsSecDsRecordModel).
 * Enabling creates a real key signing key (ECDSA P-256, algorithm 13, flags 257) and answers the
 * DS record a registrar needs, computed as RFC 4034 defines it (key tag of Appendix B, SHA-256
 * digest of owner name and DNSKEY RDATA, digest type written `SHA256 (2)` as the live API
 * does). Enabling again returns the same key; disabling drops it, so a later enable rotates it.
 * `DsConfigured` stays false: no registrar is simulated.
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import type { StoredDnsSec, StoredDnsZone } from '../dns-state.js';
import { normalizeHost } from '../dns-state.js';
import type { JsonObject, RouteDef, SimContext, SimRequest, SimResponse } from '../types.js';
import { dnsZoneOr404, isDnsResponse } from './dns-common.js';
import { touchZone } from './dns-model.js';

/** Key signing key flags (zone key + secure entry point). */
const KSK_FLAGS = 257;
/** DNSSEC algorithm 13, ECDSA P-256 with SHA-256. */
const ALGORITHM = 13;
/** DS digest type 2, SHA-256. */
const DIGEST_TYPE = 2;
/** TTL written in the DS record line. */
const DS_TTL = 3600;

/** A fresh key signing key: the DNSKEY public key (x || y of the P-256 point) in base64. */
export function newDnsSecKey(): StoredDnsSec {
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const raw = Buffer.concat([
    Buffer.from(jwk.x ?? '', 'base64url'),
    Buffer.from(jwk.y ?? '', 'base64url'),
  ]);
  return { publicKey: raw.toString('base64') };
}

/** The DNSKEY RDATA: flags, protocol 3, algorithm, public key. */
export function dnsKeyRdata(publicKey: string): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt16BE(KSK_FLAGS, 0);
  head.writeUInt8(3, 2);
  head.writeUInt8(ALGORITHM, 3);
  return Buffer.concat([head, Buffer.from(publicKey, 'base64')]);
}

/** The key tag of RFC 4034 Appendix B. */
export function keyTagOf(rdata: Buffer): number {
  let sum = 0;
  for (let i = 0; i < rdata.length; i++) sum += i % 2 === 0 ? rdata[i]! << 8 : rdata[i]!;
  sum += (sum >> 16) & 0xffff;
  return sum & 0xffff;
}

/** A domain in DNS wire format (length-prefixed lowercase labels, then the root). */
export function wireName(domain: string): Buffer {
  const labels = normalizeHost(domain)
    .split('.')
    .filter((l) => l !== '');
  return Buffer.concat([
    ...labels.map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l, 'ascii')])),
    Buffer.from([0]),
  ]);
}

/** The SHA-256 DS digest (RFC 4509) of a DNSKEY RDATA owned by `domain`, in upper-case hex. */
export function dsDigest(domain: string, rdata: Buffer): string {
  return createHash('sha256')
    .update(Buffer.concat([wireName(domain), rdata]))
    .digest('hex')
    .toUpperCase();
}

/** The DnsSecDsRecordModel of an enabled zone. */
export function dsRecordOf(domain: string, key: StoredDnsSec): JsonObject {
  const rdata = dnsKeyRdata(key.publicKey);
  const keyTag = keyTagOf(rdata);
  const digest = dsDigest(domain, rdata);
  const owner = `${normalizeHost(domain)}.`;
  return {
    Enabled: true,
    DsRecord: `${owner} ${DS_TTL} IN DS ${keyTag} ${ALGORITHM} ${DIGEST_TYPE} ${digest}`,
    Digest: digest,
    DigestType: `SHA256 (${DIGEST_TYPE})`,
    Algorithm: ALGORITHM,
    PublicKey: key.publicKey,
    KeyTag: keyTag,
    Flags: KSK_FLAGS,
    DsConfigured: false,
  };
}

const DISABLED: JsonObject = {
  Enabled: false,
  DsRecord: null,
  Digest: null,
  DigestType: null,
  Algorithm: 0,
  PublicKey: null,
  KeyTag: 0,
  Flags: 0,
  DsConfigured: false,
};

function setDnsSec(zone: StoredDnsZone, enabled: boolean): void {
  zone.zone.DnsSecEnabled = enabled;
  if (!enabled) delete zone.hidden.dnsSec;
  else zone.hidden.dnsSec ??= newDnsSecKey();
}

function dnsSecHandler(enabled: boolean) {
  return (req: SimRequest, ctx: SimContext): SimResponse => {
    const zone = dnsZoneOr404(req.params.id, ctx);
    if (isDnsResponse(zone)) return zone;
    const changed = (zone.zone.DnsSecEnabled === true) !== enabled;
    setDnsSec(zone, enabled);
    if (changed) touchZone(ctx.state, zone);
    const body = zone.hidden.dnsSec
      ? dsRecordOf(String(zone.zone.Domain), zone.hidden.dnsSec)
      : { ...DISABLED };
    return { status: 200, body };
  };
}

/** DNSSEC routes. */
export const DNS_SEC_ROUTES: RouteDef[] = [
  { method: 'POST', template: '/dnszone/{id}/dnssec', area: 'core', handler: dnsSecHandler(true) },
  {
    method: 'DELETE',
    template: '/dnszone/{id}/dnssec',
    area: 'core',
    handler: dnsSecHandler(false),
  },
];
