/**
 * The DnsRecord resource's pure parts as the kit runs them (dnsrecord/index.ts,
 * kit/crud-external.ts), without a platform: the add body, the comparison with a live record
 * and the status, for the unit tests of the field table, the hooks and the export.
 */
import type { CdnClient } from '../../src/cdn/client.js';
import type { DnsRecord as DnsRecordModel } from '../../src/cdn/dns-types.js';
import { dnsRecordResource } from '../../src/controllers/dnsrecord/index.js';
import { RECORD_FIELDS } from '../../src/controllers/dnsrecord/fields.js';
import type { DnsRecord, DnsRecordSpec } from '../../src/controllers/dnsrecord/types.js';
import type { CrudDiff } from '../../src/controllers/kit/crud-external.js';
import { compareFields, createBody, statusOf } from '../../src/controllers/kit/fields.js';
import type { ExternalContext } from '../../src/runtime/types.js';

/** A DnsRecord object of `spec` (zone 5 unless the spec names one). */
export function recordObject(spec: DnsRecordSpec): DnsRecord {
  return {
    apiVersion: 'dns.cdn.operator.io/v1beta1',
    kind: 'DnsRecord',
    metadata: { name: 'rec', namespace: 'default', uid: 'uid-rec' },
    spec: spec as DnsRecord['spec'],
  };
}

function resourceOf(obj: DnsRecord, pullZoneId?: number): ReturnType<typeof dnsRecordResource> {
  const conn = { client: {} as CdnClient, account: 'acct' };
  return dnsRecordResource(conn, obj, { zoneId: 5, ...(pullZoneId ? { pullZoneId } : {}) });
}

/** The add body of `spec` (`PUT /dnszone/{id}/records`), linking `pullZoneId`. */
export async function addBodyOf(
  spec: DnsRecordSpec,
  pullZoneId?: number,
): Promise<Record<string, unknown>> {
  const obj = recordObject(spec);
  const hooks = resourceOf(obj, pullZoneId).hooks;
  const ctx = { createPending: false } as ExternalContext;
  const body = createBody(RECORD_FIELDS, obj);
  return hooks?.createBody ? hooks.createBody(obj, body, ctx) : body;
}

/** The comparison of `spec` with `live` (the table, then the kind's hook). */
export async function compareRecord(
  spec: DnsRecordSpec,
  live: DnsRecordModel,
  pullZoneId?: number,
): Promise<CrudDiff> {
  const obj = recordObject(spec);
  const base = compareFields(RECORD_FIELDS, obj, live, 'DNS record');
  const hooks = resourceOf(obj, pullZoneId).hooks;
  return hooks?.compare ? hooks.compare(obj, live, base) : base;
}

/** The status a record shows (the table's members and the kind's), zone 5. */
export function recordStatusOf(live: DnsRecordModel): Record<string, unknown> {
  const obj = recordObject({ type: 'A', name: '' });
  return {
    ...statusOf(RECORD_FIELDS, live),
    ...resourceOf(obj).hooks?.status?.(live, obj),
  };
}
