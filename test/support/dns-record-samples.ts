/**
 * One valid DnsRecord spec (without its zone) per documented record type, each using the
 * members its type takes, for the table-driven unit and e2e tests. `pullZoneId` links the
 * PullZone record; any positive script id is accepted (edge scripts are not simulated).
 */
import type { DnsRecordSpec } from '../../src/controllers/dnsrecord/types.js';

/** The record part of a spec (no zone, account or adoption). */
export type RecordSample = Omit<DnsRecordSpec, 'dnsZoneRef' | 'dnsZoneId'>;

/** One sample per type, in the order of the document's `DnsRecordTypes`. */
export function recordSamples(pullZoneId: number): RecordSample[] {
  return [
    {
      type: 'A',
      name: 'a',
      value: '192.0.2.10',
      ttl: 120,
      weight: 50,
      smartRoutingType: 'Latency',
      latencyZone: 'DE',
    },
    {
      type: 'AAAA',
      name: 'aaaa',
      value: '2001:db8::10',
      smartRoutingType: 'Geolocation',
      geolocationLatitude: 52.5,
      geolocationLongitude: 13.4,
    },
    { type: 'CNAME', name: 'cname', value: 'target.example.net', monitorType: 'HTTP' },
    { type: 'TXT', name: '@', value: 'v=spf1 -all', comment: 'apex TXT' },
    { type: 'MX', name: '', value: 'mail.example.net', priority: 10 },
    { type: 'Redirect', name: 'go', value: 'https://example.net/landing' },
    { type: 'Flatten', name: 'flat', value: 'flat-target.example.net' },
    { type: 'PullZone', name: 'cdn', pullZoneId },
    {
      type: 'SRV',
      name: '_sip._tcp',
      value: 'sip.example.net',
      priority: 1,
      weight: 5,
      port: 5060,
    },
    { type: 'CAA', name: '', value: 'letsencrypt.org', flags: 0, tag: 'issue' },
    { type: 'PTR', name: 'ptr', value: 'host.example.net', disabled: true },
    {
      type: 'Script',
      name: 'script',
      scriptId: 42,
      environmentVariables: [{ name: 'MODE', value: 'edge' }],
    },
    { type: 'NS', name: 'delegated', value: 'ns1.example.net' },
    { type: 'SVCB', name: '_svc', value: '1 . alpn=h2' },
    { type: 'HTTPS', name: 'https', value: '1 . alpn=h2,h3', autoSslIssuance: false },
    { type: 'TLSA', name: '_443._tcp', value: '3 1 1 0123456789abcdef' },
  ];
}
