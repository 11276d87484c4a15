/**
 * The platform's `PrivateKeyType` (certificates of pull zone hostnames and of DNS zones), read
 * by DnsZone and PullZoneConfig alike: our names in wire-number order, and the document's
 * spelling of them (`Ecdsa`, `Rsa`: v1alpha1's names, kit/enum-spelling.ts).
 */

/** Key type names in wire-number order (0 = ECDSA, 1 = RSA). */
export const PRIVATE_KEY_TYPES = ['ECDSA', 'RSA'] as const;

/** The document's names of the key types -> ours. */
export const PRIVATE_KEY_TYPE_SPELLING = { Ecdsa: 'ECDSA', Rsa: 'RSA' } as const;
