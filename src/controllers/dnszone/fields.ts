/**
 * The DnsZone's fields, written once (kit/fields.ts): the CRD properties, the spec type, the
 * settings diff and update (`POST /dnszone/{id}`, the add model takes the domain only), the
 * observed status, the export and the spec path of a platform member named in an error. The
 * nameservers and the SOA contact apply only while custom nameservers are on, the anonymization
 * only while logging is on (the platform keeps its own otherwise): they are then neither
 * compared nor exported. DNSSEC is turned on and off by calls of its own (index.ts); the record
 * policy and the inline records are the zone's (records.ts). Enum names are read from the
 * official core document at generation time (`LogAnonymizationType`, `PrivateKeyType`).
 */
import { spelledOurWay } from '../kit/enum-spelling.js';
import { enumByIndex, enumByName, flag, group, text } from '../kit/codecs.js';
import { field } from '../kit/fields.js';
import { PRIVATE_KEY_TYPE_SPELLING, PRIVATE_KEY_TYPES } from '../shared/private-key-type.js';

/** Names of the platform's `LogAnonymizationType` in number order. */
export const LOG_ANONYMIZATION_TYPES = ['OneDigit', 'Drop'] as const;
/** What happens to records of the zone that no object lists. */
export const RECORD_POLICIES = ['Additive', 'Exact'] as const;

const HOST_PATTERN = '^([A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z0-9-]{2,63}\\.?$';
const host = (): ReturnType<typeof text> => text({ maxLength: 253, pattern: HOST_PATTERN });
const whileCustomNameservers = { field: 'customNameservers.enabled', values: [true] };
const whileLogging = { field: 'logging.enabled', values: [true] };

export const DNS_ZONE_FIELDS = [
  field('domain', text({ minLength: 3, maxLength: 253, pattern: HOST_PATTERN }), {
    api: 'Domain',
    write: 'create',
    same: (live, wanted) => live.toLowerCase() === wanted.toLowerCase(),
    status: 'domain',
    immutableRules: [
      {
        rule: 'self.lowerAscii() == oldSelf.lowerAscii()',
        message: 'domain is immutable: a zone cannot change its domain; create a new DnsZone',
      },
    ],
    description:
      'The domain of the zone (example.com), compared case-insensitively like the platform does. Required to create a zone; a domain that already has a zone is reported as Synced=False NameTaken unless spec.adoption asks to adopt it. Immutable.',
  }),
  field('soaEmail', text({ maxLength: 254, pattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$' }), {
    api: 'SoaEmail',
    write: 'update',
    appliesTo: whileCustomNameservers,
    unset: '',
    description:
      'Contact e-mail address of the SOA record. The platform keeps its own (hostmaster@bunny.net) unless custom nameservers are on, so this needs customNameservers.enabled: true.',
  }),
  field('customNameservers', group(), {
    description:
      "Nameservers the zone announces. Off: the platform's (kiki.bunny.net, coco.bunny.net).",
  }),
  field('customNameservers.enabled', flag(), {
    api: 'CustomNameserversEnabled',
    write: 'update',
    required: true,
    unset: false,
    description: 'Announce ns1 and ns2 instead of the platform nameservers.',
  }),
  field('customNameservers.ns1', host(), {
    api: 'Nameserver1',
    write: 'update',
    appliesTo: whileCustomNameservers,
    unset: '',
    description: 'First nameserver (a host name).',
  }),
  field('customNameservers.ns2', host(), {
    api: 'Nameserver2',
    write: 'update',
    appliesTo: whileCustomNameservers,
    unset: '',
    description: 'Second nameserver (a host name).',
  }),
  field('logging', group(), { description: 'Query logging of the zone.' }),
  field('logging.enabled', flag(), {
    api: 'LoggingEnabled',
    write: 'update',
    required: true,
    unset: false,
    description: 'Log the queries the zone answers.',
  }),
  field('logging.ipAnonymization', flag(), {
    api: 'LoggingIPAnonymizationEnabled',
    write: 'update',
    appliesTo: whileLogging,
    description: 'Anonymize the client IP addresses in the logs (only while logging is enabled).',
  }),
  field('logging.anonymizationType', enumByIndex(LOG_ANONYMIZATION_TYPES), {
    api: 'LogAnonymizationType',
    write: 'update',
    appliesTo: whileLogging,
    bounds: (docs) => ({ enum: docs.xEnumNames('core', 'LogAnonymizationType') }),
    description:
      'How addresses are anonymized: OneDigit drops the last digit group, Drop removes the address.',
  }),
  field('certificateKeyType', enumByIndex(PRIVATE_KEY_TYPES), {
    api: 'CertificateKeyType',
    write: 'update',
    bounds: (docs) => ({
      enum: spelledOurWay(docs.xEnumNames('core', 'PrivateKeyType'), PRIVATE_KEY_TYPE_SPELLING),
    }),
    description: "Key type of the zone's wildcard certificate: ECDSA or RSA.",
  }),
  field('dnssec', group(), { description: 'DNSSEC signing of the zone.' }),
  field('dnssec.enabled', flag(), {
    record: 'DnsSecEnabled',
    description:
      'Sign the zone with DNSSEC (true) or not (false); unset leaves it as it is. While on, status.dnssec holds the DS record to give the registrar. Turning it off and on again creates a new key: update the registrar.',
  }),
  field('recordPolicy', enumByName(RECORD_POLICIES), {
    schema: { default: 'Additive' },
    description:
      'Additive: records not in spec.records are left alone (records this resource created are deleted when dropped from the list). Exact: every record neither in spec.records nor managed by a DnsRecord object is deleted.',
  }),
] as const;
