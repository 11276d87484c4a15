/**
 * Pure planning of inline records: adoption by content (type + name + value), extras updated
 * in place, Additive keeps unmanaged records (and deletes only the ones this object created
 * and dropped), Exact deletes unmanaged records but never one another object claims, by id
 * (`DnsRecord`) or by declared content while it may be creating it (`DnsRecordDeclared`;
 * record-sweep.test.ts has the whole decision table), Exact without the claim index deletes
 * nothing, and a listed record another object manages is a conflict, never created or changed.
 * A listed record that is gone is created again only when this object created it
 * (`status.records[].created`): one it adopted is reported gone, never created (issue 53).
 */
import test from 'ava';
import type { DnsRecord } from '../../../../src/cdn/dns-types.js';
import {
  declaredKeyByRef,
  DNS_RECORD_CLAIM,
  DNS_RECORD_CONTENT_CLAIM,
  DNS_RECORD_DECLARED_CLAIM,
  dnsRecordContentKey,
} from '../../../../src/controllers/shared/dns-record-claims.js';
import { ZONE_RECORDS } from '../../../../src/controllers/dnszone/records.js';
import type { ChildPlanInput } from '../../../../src/controllers/kit/child-list.js';
import { noClaimIndex, planChildren } from '../../../../src/controllers/kit/child-plan.js';
import type { ClaimHolder } from '../../../../src/runtime/types.js';
import type {
  DnsZoneRecordSpec,
  RecordContent,
} from '../../../../src/controllers/dnszone/types.js';

type RecordPlanInput = ChildPlanInput<RecordContent>;
const planRecords = (input: RecordPlanInput): ReturnType<typeof planChildren<RecordContent>> =>
  planChildren(ZONE_RECORDS, input);
const NO_CLAIM_INDEX = noClaimIndex(ZONE_RECORDS);

const ZONE = 9;
const WWW: DnsRecord = { Id: 1, Type: 2, Name: 'www', Value: 'shop.b-cdn.net', Ttl: 300 };
const APEX_A: DnsRecord = { Id: 2, Type: 0, Name: '', Value: '192.0.2.1', Ttl: 300 };
const TEAM_TXT: DnsRecord = { Id: 3, Type: 3, Name: 'team', Value: 'owned', Ttl: 300 };
const MX: DnsRecord = { Id: 4, Type: 4, Name: '', Value: 'mail.shop.example', Priority: 10 };

const claims =
  (held: [string, string][]) =>
  (type: string, id: string): boolean =>
    held.some(([t, i]) => t === type && i === id);

/** A claim lookup where a DnsRecord `ns/<name>` holds each `[type, id, recorded]`. */
const claimants =
  (held: [string, string, boolean][]) =>
  (type: string, id: string): ClaimHolder[] =>
    held
      .filter(([t, i]) => t === type && i === id)
      .map(([, i, recorded]) => ({ kind: 'DnsRecord', namespace: 'ns', name: i, recorded }));

const NONE = claimants([]);

function plan(
  records: DnsZoneRecordSpec[],
  live: DnsRecord[],
  extra: Partial<RecordPlanInput> = {},
): ReturnType<typeof planRecords> {
  return planRecords({
    parentId: ZONE,
    parent: { namespace: 'ns', name: 'z' },
    entries: records,
    policy: undefined,
    live,
    previous: [],
    ...extra,
  });
}

const ops = (p: ReturnType<typeof planRecords>): string[] =>
  p.actions.map((a) => (a.op === 'create' ? `create ${a.label.split(' ')[0]}` : `${a.op} ${a.id}`));

test('content key: type name, name lowercased, @ is the apex, value as is', (t) => {
  t.is(dnsRecordContentKey(9, 'CNAME', 'WWW', 'Shop.b-cdn.net'), '9/CNAME/www/Shop.b-cdn.net');
  t.is(dnsRecordContentKey(9, 'A', '@', '192.0.2.1'), dnsRecordContentKey(9, 'A', '', '192.0.2.1'));
  t.is(DNS_RECORD_CLAIM, 'DnsRecord');
  t.is(DNS_RECORD_CONTENT_CLAIM, 'DnsRecordContent');
});

const cases: {
  name: string;
  records: DnsZoneRecordSpec[];
  live: DnsRecord[];
  extra?: Partial<RecordPlanInput>;
  ops: string[];
  observed?: number[];
  conflicts?: number;
  gone?: number;
}[] = [
  {
    name: 'a listed record that exists is adopted by content (name case-insensitive)',
    records: [{ type: 'CNAME', name: 'WWW', value: 'shop.b-cdn.net' }],
    live: [WWW],
    ops: [],
    observed: [1],
  },
  {
    name: 'a listed record that does not exist is created',
    records: [{ type: 'A', name: '@', value: '192.0.2.9' }],
    live: [APEX_A],
    ops: ['create A'],
    observed: [],
  },
  {
    name: 'another value is another record: created, the old one kept (Additive)',
    records: [{ type: 'CNAME', name: 'www', value: 'other.b-cdn.net' }],
    live: [WWW],
    ops: ['create CNAME'],
  },
  {
    name: 'a listed TTL or priority that differs is updated in place',
    records: [
      { type: 'CNAME', name: 'www', value: 'shop.b-cdn.net', ttl: 60 },
      { type: 'MX', value: 'mail.shop.example', priority: 20 },
    ],
    live: [WWW, MX],
    ops: ['update 1', 'update 4'],
    observed: [1, 4],
  },
  {
    name: 'Additive keeps unmanaged records',
    records: [],
    live: [WWW, APEX_A],
    ops: [],
  },
  {
    name: 'Additive deletes a record this object created and dropped from the list',
    records: [],
    live: [WWW, APEX_A],
    extra: { previous: [{ type: 'A', name: '', value: '192.0.2.1', id: 2, created: true }] },
    ops: ['delete 2'],
    observed: [2],
  },
  {
    name: 'Additive does not delete a dropped record it only adopted',
    records: [],
    live: [WWW],
    extra: { previous: [{ type: 'CNAME', name: 'www', value: 'shop.b-cdn.net', id: 1 }] },
    ops: [],
  },
  {
    name: 'Exact deletes every unlisted, unmanaged record',
    records: [{ type: 'CNAME', name: 'www', value: 'shop.b-cdn.net' }],
    live: [WWW, APEX_A, MX],
    extra: { policy: 'Exact', claimantsOf: NONE },
    ops: ['delete 2', 'delete 4'],
  },
  {
    name: 'Exact never deletes a record a DnsRecord object claims by id',
    records: [],
    live: [WWW, TEAM_TXT],
    extra: { policy: 'Exact', claimantsOf: claimants([[DNS_RECORD_CLAIM, '3', true]]) },
    ops: ['delete 1'],
  },
  {
    name: 'Exact never deletes a record a DnsRecord object is creating (declared content)',
    records: [],
    live: [TEAM_TXT, WWW],
    extra: {
      policy: 'Exact',
      claimantsOf: claimants([
        [DNS_RECORD_DECLARED_CLAIM, declaredKeyByRef('ns', 'z', 'TXT', 'team', 'owned'), false],
      ]),
    },
    ops: ['delete 1'],
  },
  {
    name: 'Additive never deletes a record it created once another object claims it by id',
    records: [],
    live: [WWW, APEX_A],
    extra: {
      previous: [{ type: 'A', name: '', value: '192.0.2.1', id: 2, created: true }],
      claimantsOf: claimants([[DNS_RECORD_CLAIM, '2', true]]),
    },
    ops: [],
  },
  {
    name: 'a listed record another object manages is a conflict: neither created nor changed',
    records: [{ type: 'TXT', name: 'team', value: 'owned', ttl: 5 }],
    live: [TEAM_TXT],
    extra: { claimedByOther: claims([[DNS_RECORD_CLAIM, '3']]) },
    ops: [],
    observed: [],
    conflicts: 1,
  },
  {
    name: 'a listed record this object adopted that is gone is never created again',
    records: [
      { type: 'A', name: 'www', value: '192.0.2.5' },
      { type: 'CNAME', name: 'www', value: 'shop.b-cdn.net' },
    ],
    live: [],
    extra: { previous: [{ type: 'A', name: 'www', value: '192.0.2.5', id: 7 }] },
    ops: ['create CNAME'],
    observed: [7],
    gone: 1,
  },
  {
    name: 'a listed record this object created that is gone is created again',
    records: [{ type: 'A', name: 'www', value: '192.0.2.5' }],
    live: [],
    extra: { previous: [{ type: 'A', name: 'www', value: '192.0.2.5', id: 7, created: true }] },
    ops: ['create A'],
    observed: [],
  },
  {
    name: 'an adopted record dropped from the list and listed again is created (a new entry)',
    records: [{ type: 'A', name: 'www', value: '192.0.2.5' }],
    live: [],
    extra: { previous: [] },
    ops: ['create A'],
  },
  {
    name: 'a record listed twice is one record',
    records: [
      { type: 'A', value: '192.0.2.9' },
      { type: 'A', name: '@', value: '192.0.2.9' },
    ],
    live: [],
    ops: ['create A'],
  },
];

test('records: Exact without the claim index plans nothing and says why', (t) => {
  const err = t.throws(() => plan([], [WWW, APEX_A], { policy: 'Exact' }));
  t.is(err?.message, NO_CLAIM_INDEX);
  t.deepEqual(ops(plan([], [WWW, APEX_A])), [], 'Additive needs no claim index');
});

for (const c of cases) {
  test(`records: ${c.name}`, (t) => {
    const p = plan(c.records, c.live, c.extra);
    t.deepEqual(ops(p), c.ops);
    if (c.observed)
      t.deepEqual(
        p.observed.map((r) => r.id),
        c.observed,
      );
    t.is(p.conflicts.length, c.conflicts ?? 0);
    t.is(p.gone.length, c.gone ?? 0);
    t.is(p.diffs.length > 0, p.actions.length > 0, 'a plan entry exactly when a call is planned');
  });
}

test('records: the create body carries the type number and only the listed extras', (t) => {
  const p = plan([{ type: 'CAA', name: '', value: 'letsencrypt.org', flags: 0, tag: 'issue' }], []);
  t.deepEqual(p.actions, [
    {
      op: 'create',
      record: { Type: 9, Name: '', Value: 'letsencrypt.org', Flags: 0, Tag: 'issue' },
      entry: 0,
      label: 'CAA @ "letsencrypt.org"',
    },
  ]);
});

test('records: gone and conflicting entries are named by their index in spec.records', (t) => {
  const p = plan(
    [
      { type: 'A', name: 'www', value: '192.0.2.5' },
      { type: 'TXT', name: 'team', value: 'owned' },
      { type: 'MX', value: 'mail.shop.example', priority: 20 },
    ],
    [TEAM_TXT, MX],
    {
      previous: [{ type: 'A', name: 'www', value: '192.0.2.5', id: 7 }],
      claimedByOther: claims([[DNS_RECORD_CLAIM, '3']]),
      claimantsOf: claimants([[DNS_RECORD_CLAIM, '3', true]]),
    },
  );
  t.deepEqual(p.gone, [
    'spec.records[0] (A www "192.0.2.5") was adopted (it was on the platform before this object listed it) and record 7 is gone',
  ]);
  t.deepEqual(p.conflicts, ['spec.records[1] (TXT team "owned") is managed by DnsRecord ns/3']);
  t.like(p.actions[0], { op: 'update', id: 4, entry: 2, label: 'MX @ "mail.shop.example"' });
});
