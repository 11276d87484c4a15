/**
 * The containers family's string enums whose spec names are not the platform's wire values
 * (kit/enum-spelling.ts): spec name -> wire value.
 */

/** ContainerRegistry `spec.type` (the document's `RegistryType`). */
export const REGISTRY_TYPE_NAMES = {
  DockerHub: 'dockerHub',
  GitHub: 'gitHub',
  BunnyRegistry: 'bunnyRegistry',
} as const;
/** `CdnEndpoint.portMappings[].protocols[]` (the document's `Protocol`). */
export const PROTOCOL_NAMES = { TCP: 'tcp', UDP: 'udp', SCTP: 'sctp' } as const;
/** `logForwarding.type` (`CreateLogForwardingRequest.type`). */
export const LOG_TYPE_NAMES = { SyslogUDP: 'SyslogUdp', SyslogTCP: 'SyslogTcp' } as const;
/** `logForwarding.format` (`CreateLogForwardingRequest.format`). */
export const LOG_FORMAT_NAMES = {
  SyslogRFC3164: 'SyslogRfc3164',
  SyslogRFC5424: 'SyslogRfc5424',
} as const;
