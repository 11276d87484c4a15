/**
 * How a DnsZone's record errors are classified (kit/child-errors.ts with the zone's records, records.ts): a failed record call names
 * the spec.records entry it applied (issue 53: an invalid value was reported without saying
 * which entry) and keeps the class of the platform's answer; the members the platform names
 * map to that entry's spec paths; a conflict is Synced=False RecordManagedElsewhere, retried.
 */
import test from 'ava';
import { CdnApiError, type CdnApiErrorInit } from '../../../../src/cdn/errors.js';
import { ZONE_RECORDS } from '../../../../src/controllers/dnszone/records.js';
import {
  ChildCallError,
  ChildConflictError,
  classifyChildError,
} from '../../../../src/controllers/kit/child-errors.js';
import type { ChildAction } from '../../../../src/controllers/kit/child-list.js';

const CREATE: ChildAction = {
  op: 'create',
  record: { Type: 0, Name: 'bad', Value: 'x' },
  entry: 3,
  label: 'A bad "x"',
};
const DELETE: ChildAction = { op: 'delete', id: 7, label: 'TXT old "v"' };

const cdnError = (init: Partial<CdnApiErrorInit>): CdnApiError =>
  new CdnApiError({ operation: 'addDnsRecord', kind: 'invalid', message: 'm', ...init });

/** The zone's own mapping of settings members (index.ts), left untouched for record members. */
const zonePaths = (field: string): string => (field === 'SoaEmail' ? 'spec.soaEmail' : field);

const cases: {
  name: string;
  err: unknown;
  like: Record<string, unknown>;
  message: RegExp;
}[] = [
  {
    name: 'a refused member maps to the path of the entry the call applied',
    err: new ChildCallError(
      ZONE_RECORDS,
      CREATE,
      cdnError({ status: 400, field: 'Value', detail: 'Value must be an IPv4 address' }),
    ),
    like: { class: 'terminal', reason: 'InvalidSpec' },
    message:
      /^spec\.records\[3\] \(A bad "x"\): addDnsRecord \(HTTP 400\): spec\.records\[3\]\.value \(Value\): Value must be an IPv4 address$/,
  },
  {
    name: 'a refusal naming no member still names the entry',
    err: new ChildCallError(
      ZONE_RECORDS,
      CREATE,
      cdnError({ status: 400, detail: 'The record is invalid.' }),
    ),
    like: { class: 'terminal', reason: 'InvalidSpec' },
    message:
      /^spec\.records\[3\] \(A bad "x"\): addDnsRecord \(HTTP 400\): The record is invalid\.$/,
  },
  {
    name: 'a transient failure stays retryable (the platform did not take it: notApplied)',
    err: new ChildCallError(
      ZONE_RECORDS,
      CREATE,
      cdnError({ kind: 'server', status: 503, detail: 'busy' }),
    ),
    like: { class: 'retryable', reason: 'ApiUnavailable', notApplied: true },
    message: /^spec\.records\[3\] \(A bad "x"\): addDnsRecord \(HTTP 503\): busy$/,
  },
  {
    name: 'a failed delete names the record and its id (it is no spec entry)',
    err: new ChildCallError(
      ZONE_RECORDS,
      DELETE,
      cdnError({ operation: 'deleteDnsRecord', kind: 'server', status: 500, detail: 'oops' }),
    ),
    like: { class: 'retryable', reason: 'ApiUnavailable' },
    message: /^record TXT old "v" \(id 7\): deleteDnsRecord \(HTTP 500\): oops$/,
  },
  {
    name: 'a conflict is RecordManagedElsewhere, retried',
    err: new ChildConflictError(ZONE_RECORDS, [
      'spec.records[1] (TXT t "o") is managed by DnsRecord a/b',
    ]),
    like: { class: 'retryable', reason: 'RecordManagedElsewhere' },
    message: /^cannot manage spec\.records: spec\.records\[1\] .* nothing is written to the zone/,
  },
  {
    name: 'a zone error keeps the zone mapping of its member',
    err: cdnError({ operation: 'updateDnsZone', status: 400, field: 'SoaEmail', detail: 'bad' }),
    like: { class: 'terminal', reason: 'InvalidSpec' },
    message: /^updateDnsZone \(HTTP 400\): spec\.soaEmail: bad$/,
  },
];

for (const c of cases) {
  test(`classify: ${c.name}`, (t) => {
    const got = classifyChildError(ZONE_RECORDS, c.err, zonePaths);
    t.like(got, c.like);
    t.regex(got.message, c.message);
  });
}
