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
/** `portMappings[].protocols[]` of CDN and Anycast endpoints (the document's `Protocol`). */
export const PROTOCOL_NAMES = { TCP: 'tcp', UDP: 'udp', SCTP: 'sctp' } as const;
/** `anycast.ipVersion` (the document's `AnycastIpProtocolVersion`, sent as `anycast.type`). */
export const ANYCAST_IP_VERSION_NAMES = { IPv4: 'iPv4' } as const;
/**
 * `status.containers[].endpoints[].type` (the document's `EndpointType`). The document's
 * `publicIp` is the type the vendor's Terraform provider calls InternalIP (docs/containerapp.md).
 */
export const ENDPOINT_TYPE_NAMES = {
  CDN: 'cdn',
  Anycast: 'anycast',
  InternalIP: 'publicIp',
} as const;
/** `logForwarding.type` (`CreateLogForwardingRequest.type`). */
export const LOG_TYPE_NAMES = { SyslogUDP: 'SyslogUdp', SyslogTCP: 'SyslogTcp' } as const;
/** `logForwarding.format` (`CreateLogForwardingRequest.format`). */
export const LOG_FORMAT_NAMES = {
  SyslogRFC3164: 'SyslogRfc3164',
  SyslogRFC5424: 'SyslogRfc5424',
} as const;
