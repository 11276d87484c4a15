/**
 * The schema of `spec.logForwarding` and `status.logForwarding` of a ContainerApp: syslog
 * forwarding of the application's logs (`/mc/log/forwarding`). Enums come from the official
 * Magic Containers document (`CreateLogForwardingRequest`) at generation time; the port range
 * is the one of a TCP/UDP port (the document gives none). Semantics: docs/containerapp.md,
 * "Log forwarding".
 */
import { secretKeyRefSchema, type BoundKey, type Schema } from '../shared/crd-schema.js';
import { LOG_FORMAT_NAMES, LOG_TYPE_NAMES } from './wire-enums.js';
import { specEnumOf } from '../kit/enum-spelling.js';

/** Bounds of a property of the Magic Containers document. */
type Doc = (path: string, take?: BoundKey[]) => Schema;

/** `spec.logForwarding`. */
export function logForwardingSpecSchema(doc: Doc): Schema {
  return {
    type: 'object',
    description:
      "Forward the application's logs to a syslog endpoint (one configuration per application). Removing this block deletes the configuration the operator managed; an application whose spec never had the block keeps whatever forwarding it has (not read, not changed). See docs/containerapp.md, Log forwarding.",
    required: ['type', 'endpoint', 'port', 'format'],
    properties: {
      enabled: {
        type: 'boolean',
        default: true,
        description:
          'Whether logs are forwarded (default true). false keeps the configuration but stops forwarding.',
      },
      type: {
        type: 'string',
        ...specEnumOf(LOG_TYPE_NAMES, doc('CreateLogForwardingRequest.type', ['enum'])),
        description: 'Transport: SyslogUDP or SyslogTCP.',
      },
      endpoint: {
        type: 'string',
        minLength: 1,
        maxLength: 253,
        pattern: '^[A-Za-z0-9.:-]+$',
        description:
          'Hostname or IP address of the syslog collector (no scheme, no port). Compared without regard to case.',
      },
      port: {
        type: 'integer',
        minimum: 1,
        maximum: 65535,
        format: 'int32',
        ...doc('CreateLogForwardingRequest.port'),
        description: 'Port of the syslog collector.',
      },
      format: {
        type: 'string',
        ...specEnumOf(LOG_FORMAT_NAMES, doc('CreateLogForwardingRequest.format', ['enum'])),
        description: 'Syslog message format: SyslogRFC3164 or SyslogRFC5424.',
      },
      tokenSecretRef: secretKeyRefSchema(
        'The token passed as a syslog field: one key of a Secret in this namespace (read, watched, never written). A change to the value is sent once (one PUT); status keeps only a salted fingerprint. Unset: the token is not managed (none is sent; one set on the platform is kept).',
        'Key in the Secret whose value is the token, used exactly as stored.',
      ),
    },
  };
}

/** `status.logForwarding`. */
export const LOG_FORWARDING_STATUS: Schema = {
  type: 'object',
  description:
    'The log forwarding configuration this resource manages, as last read from the platform (absent when the spec has none). Never the token.',
  properties: {
    id: { type: 'string', description: 'Platform id of the configuration.' },
    enabled: { type: 'boolean', description: 'Whether logs are forwarded.' },
    type: { type: 'string', description: 'Transport (SyslogUDP, SyslogTCP).' },
    endpoint: { type: 'string', description: 'Syslog collector host.' },
    port: { type: 'integer', format: 'int32', description: 'Syslog collector port.' },
    format: {
      type: 'string',
      description: 'Syslog message format (SyslogRFC3164, SyslogRFC5424).',
    },
    tokenFingerprint: {
      type: 'string',
      description:
        'sha256: digest (salted with the object uid) of the token last applied or found equal on the platform; tells a rotation apart, reveals nothing of the value. Absent when the token is not managed.',
    },
  },
};
