/**
 * DnsRecord references with a fake informer cache: dnsZoneRef reads the DnsZone's
 * status.dnsZoneId (waiting while it is missing or has none), a DnsZone of another account is
 * refused, pullZoneRef reads the PullZoneConfig's status.pullZoneId, exactly one of ref and id,
 * raw ids become id references (claim types DnsZone and PullZoneConfig), and deletion uses the
 * recorded zone without waiting.
 */
import test from 'ava';
import {
  idReferencesOf,
  objectReferences,
  resolveReferences,
} from '../../../../src/controllers/dnsrecord/references.js';
import type { DnsRecord, DnsRecordSpec } from '../../../../src/controllers/dnsrecord/types.js';
import { WaitingError } from '../../../../src/runtime/errors.js';
import type { ManagedObject, ObjectReference } from '../../../../src/runtime/types.js';

function record(spec: Partial<DnsRecordSpec>, extra: Partial<DnsRecord> = {}): DnsRecord {
  return {
    apiVersion: 'dns.cdn.operator.io/v1beta1',
    kind: 'DnsRecord',
    metadata: { name: 'r', namespace: 'team-a', uid: 'u' },
    spec: { type: 'CNAME', name: 'www', value: 'x.b-cdn.net', ...spec },
    ...extra,
  };
}

interface FakeCache {
  getObject: (ref: ObjectReference) => ManagedObject | undefined;
  seen: ObjectReference[];
}

function cache(objects: Record<string, ManagedObject['status']>): FakeCache {
  const seen: ObjectReference[] = [];
  const getObject = (ref: ObjectReference): ManagedObject | undefined => {
    seen.push(ref);
    const status = objects[`${ref.kind}/${ref.namespace}/${ref.name}`];
    if (status === undefined) return undefined;
    return {
      apiVersion: ref.apiVersion,
      kind: ref.kind,
      metadata: { name: ref.name, namespace: ref.namespace, uid: 'x' },
      status,
    };
  };
  return { getObject, seen };
}

test('dnsZoneRef: the DnsZone’s status.dnsZoneId in the same namespace', (t) => {
  const c = cache({ 'DnsZone/team-a/example': { dnsZoneId: 42, ownership: { account: 'acct' } } });
  t.deepEqual(resolveReferences(record({ dnsZoneRef: { name: 'example' } }), c.getObject, 'acct'), {
    zoneId: 42,
  });
  t.like(c.seen[0], {
    apiVersion: 'dns.cdn.operator.io/v1beta1',
    kind: 'DnsZone',
    namespace: 'team-a',
  });
});

const waits: [string, Record<string, ManagedObject['status']>, RegExp][] = [
  ['missing DnsZone', {}, /DnsZone team-a\/example was not found/],
  ['DnsZone without id yet', { 'DnsZone/team-a/example': {} }, /has no status\.dnsZoneId yet/],
];
for (const [why, objects, message] of waits) {
  test(`dnsZoneRef waits (ReferenceNotReady): ${why}`, (t) => {
    const err = t.throws(() =>
      resolveReferences(
        record({ dnsZoneRef: { name: 'example' } }),
        cache(objects).getObject,
        'acct',
      ),
    );
    t.true(err instanceof WaitingError);
    t.is((err as WaitingError).reason, 'ReferenceNotReady');
    t.regex(err?.message ?? '', message);
  });
}

test('dnsZoneRef to a DnsZone of another account is refused', (t) => {
  const c = cache({ 'DnsZone/team-a/example': { dnsZoneId: 42, ownership: { account: 'other' } } });
  t.throws(
    () => resolveReferences(record({ dnsZoneRef: { name: 'example' } }), c.getObject, 'acct'),
    {
      message: /lives in another account/,
    },
  );
});

test('exactly one of dnsZoneRef and dnsZoneId', (t) => {
  const c = cache({});
  t.throws(() => resolveReferences(record({}), c.getObject, 'acct'), { message: /exactly one/ });
  t.throws(
    () =>
      resolveReferences(record({ dnsZoneRef: { name: 'z' }, dnsZoneId: 1 }), c.getObject, 'acct'),
    { message: /exactly one of spec\.dnsZoneRef and spec\.dnsZoneId/ },
  );
});

test('pullZoneRef: the PullZoneConfig’s status.pullZoneId', (t) => {
  const c = cache({ 'PullZoneConfig/team-a/site': { pullZoneId: 7 } });
  const obj = record({
    type: 'PullZone',
    value: undefined,
    dnsZoneId: 3,
    pullZoneRef: { name: 'site' },
  });
  t.deepEqual(resolveReferences(obj, c.getObject, 'acct'), { zoneId: 3, pullZoneId: 7 });
  t.deepEqual(
    objectReferences({ ...obj, spec: { ...obj.spec, dnsZoneRef: { name: 'z' } } } as DnsRecord).map(
      (r) => r.kind,
    ),
    ['DnsZone', 'PullZoneConfig'],
  );
});

test('raw ids are references checked like a *Ref', (t) => {
  const obj = record({ type: 'PullZone', dnsZoneId: 3, pullZoneId: 9 });
  t.deepEqual(idReferencesOf(obj), [
    { field: 'spec.dnsZoneId', type: 'DnsZone', id: '3' },
    { field: 'spec.pullZoneId', type: 'PullZoneConfig', id: '9' },
  ]);
});

test('deletion never waits: the recorded zone', (t) => {
  const obj = record({ dnsZoneRef: { name: 'gone' } }, { status: { dnsZoneId: 5 } });
  obj.metadata.deletionTimestamp = '2026-11-25T00:00:00Z';
  t.deepEqual(resolveReferences(obj, cache({}).getObject, 'acct'), { zoneId: 5 });
});
