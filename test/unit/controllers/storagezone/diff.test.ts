/**
 * StorageZone's field table (fields.ts) through the kit, pure: the create body, tier names,
 * status and Secret data, and the comparison of a spec with a live zone (table-driven, each
 * case with its reason).
 */
import test from 'ava';
import type { StorageZone as ZoneRecord } from '../../../../src/cdn/types.js';
import { compareFields, createBody, statusOf } from '../../../../src/controllers/kit/fields.js';
import { enumByIndex } from '../../../../src/controllers/kit/codecs.js';
import { STORAGE_ZONE_FIELDS, ZONE_TIERS } from '../../../../src/controllers/storagezone/fields.js';
import {
  passwordSecretData,
  passwordSecretNameOf,
  zoneNameOf,
} from '../../../../src/controllers/storagezone/index.js';
import type {
  StorageZone,
  StorageZoneSpec,
} from '../../../../src/controllers/storagezone/types.js';

function objectOf(spec: StorageZoneSpec, name = 'assets'): StorageZone {
  return {
    apiVersion: 'storage.cdn.operator.io/v1beta1',
    kind: 'StorageZone',
    metadata: { name, namespace: 'team-a', uid: 'uid-1' },
    spec: spec as StorageZone['spec'],
  };
}

const LIVE: ZoneRecord = {
  Id: 12,
  Name: 'assets',
  Region: 'DE',
  ReplicationRegions: ['NY'],
  ZoneTier: 0,
  Password: 'pw-0123456789',
  ReadOnlyPassword: 'ro-0123456789',
  StorageHostname: 'storage.bunnycdn.com',
  S3Hostname: null,
  Rewrite404To200: false,
  Custom404FilePath: null,
  DateModified: '2024-01-01T00:00:00Z',
  Deleted: false,
  StorageUsed: 0,
  FilesStored: 0,
  ReplicationChangeInProgress: false,
  PriceOverride: 0,
  Discount: 0,
};

test('names: spec.name wins, else metadata.name; Secret name defaults to <name>-storagezone', (t) => {
  t.is(zoneNameOf(objectOf({ region: 'DE' })), 'assets');
  t.is(zoneNameOf(objectOf({ region: 'DE', name: 'other' })), 'other');
  t.is(passwordSecretNameOf(objectOf({})), 'assets-storagezone');
  t.is(passwordSecretNameOf(objectOf({ outputSecretRef: { name: 'creds' } })), 'creds');
});

test('create body: name, region, replication regions and tier as the platform numbers it', (t) => {
  // The name comes from the identity rules (the create's name member), not the table.
  const body = (spec: StorageZoneSpec): Record<string, unknown> =>
    createBody(STORAGE_ZONE_FIELDS, objectOf(spec));
  t.deepEqual(body({ region: 'NY', replicationRegions: ['DE', 'SYD'], zoneTier: 'Edge' }), {
    Region: 'NY',
    ReplicationRegions: ['DE', 'SYD'],
    ZoneTier: 1,
  });
  t.deepEqual(body({ region: 'DE' }), { Region: 'DE' });
  t.deepEqual(
    body({ region: 'DE', storageZoneType: 'Supported' }),
    { Region: 'DE', StorageZoneType: 1 },
    'an S3 zone is asked for with the add model StorageZoneType (1 = Supported)',
  );
  t.deepEqual(
    body({ region: 'DE', rewrite404To200: true }),
    { Region: 'DE' },
    'update-only members are not in the add body',
  );
});

test('tier names: numbers map to the document names; absent is Standard', (t) => {
  const tier = enumByIndex(ZONE_TIERS);
  t.is(tier.fromWire(0), 'Standard');
  t.is(tier.fromWire(1), 'Edge');
  t.is(tier.toWire('Edge'), 1);
  t.is(tier.fromWire(7), undefined, 'an unknown number is no name');
  t.is(statusOf(STORAGE_ZONE_FIELDS, { ZoneTier: null }).zoneTier, 'Standard');
});

test('status carries no password; the Secret data carries both passwords and the endpoint', (t) => {
  const status = statusOf(STORAGE_ZONE_FIELDS, LIVE);
  t.like(status, {
    name: 'assets',
    region: 'DE',
    zoneTier: 'Standard',
    replicationRegions: ['NY'],
  });
  t.false(JSON.stringify(status).includes('0123456789'));
  t.deepEqual(passwordSecretData(LIVE), {
    storageZoneId: '12',
    storageZoneName: 'assets',
    hostname: 'storage.bunnycdn.com',
    region: 'DE',
    password: 'pw-0123456789',
    readOnlyPassword: 'ro-0123456789',
  });
});

const cases: {
  name: string;
  spec: StorageZoneSpec;
  live?: Partial<ZoneRecord>;
  fields: string[];
  update: Record<string, unknown>;
  immutable?: RegExp;
}[] = [
  {
    name: 'equal spec: nothing to do',
    spec: { region: 'DE', replicationRegions: ['NY'], zoneTier: 'Standard' },
    fields: [],
    update: {},
  },
  {
    name: 'a replication region added: the whole list is sent, live ones first',
    spec: { region: 'DE', replicationRegions: ['NY', 'SYD'] },
    fields: ['ReplicationRegions'],
    update: { ReplicationZones: ['NY', 'SYD'] },
  },
  {
    name: 'a live region not in the spec is kept (the platform cannot remove one)',
    spec: { region: 'DE', replicationRegions: ['LA'] },
    fields: ['ReplicationRegions'],
    update: { ReplicationZones: ['NY', 'LA'] },
  },
  {
    name: 'a spec listing fewer regions than live is in sync (no removal possible)',
    spec: { region: 'DE', replicationRegions: [] },
    fields: [],
    update: {},
  },
  {
    name: 'replicationRegions unset: unmanaged',
    spec: { region: 'DE' },
    live: { ReplicationRegions: ['NY', 'LA'] },
    fields: [],
    update: {},
  },
  {
    name: 'rewrite404To200 and custom404FilePath differ: both in one update',
    spec: { region: 'DE', rewrite404To200: true, custom404FilePath: '/404.html' },
    fields: ['Rewrite404To200', 'Custom404FilePath'],
    update: { Rewrite404To200: true, Custom404FilePath: '/404.html' },
  },
  {
    name: 'an empty custom404FilePath equals the platform null',
    spec: { region: 'DE', custom404FilePath: '', rewrite404To200: false },
    fields: [],
    update: {},
  },
  {
    name: 'another main region cannot be fixed by an update',
    spec: { region: 'NY' },
    fields: [],
    update: {},
    immutable: /spec\.region is NY but the storage zone has DE/,
  },
  {
    name: 'another tier cannot be fixed by an update',
    spec: { region: 'DE', zoneTier: 'Edge' },
    fields: [],
    update: {},
    immutable: /spec\.zoneTier is Edge but the storage zone has Standard/,
  },
  {
    name: 'S3 support cannot be added to or removed from an existing zone',
    spec: { region: 'DE', storageZoneType: 'Supported' },
    live: { StorageZoneType: 0 },
    fields: [],
    update: {},
    immutable: /spec\.storageZoneType is Supported but the storage zone has NotSupported/,
  },
  {
    name: 'an S3 zone as asked: nothing to do',
    spec: { region: 'DE', storageZoneType: 'Supported' },
    live: { StorageZoneType: 1 },
    fields: [],
    update: {},
  },
  {
    name: 'a zone adopted without region or tier in the spec: nothing asserted',
    spec: { adoption: { policy: 'ById', id: 12 } },
    live: { Region: 'SG', ZoneTier: 1 },
    fields: [],
    update: {},
  },
  {
    name: 'adopted by id without spec.name: the zone keeps its own name (metadata.name differs)',
    spec: { adoption: { policy: 'ById', id: 12 } },
    live: { Name: 'made-elsewhere' },
    fields: [],
    update: {},
  },
  {
    name: 'an explicit spec.name that differs cannot be fixed by an update',
    spec: { region: 'DE', name: 'renamed' },
    fields: [],
    update: {},
    immutable: /spec\.name is renamed but the storage zone has assets/,
  },
  {
    name: 'name compared without case (the platform treats names so)',
    spec: { region: 'DE', name: 'ASSETS' },
    fields: [],
    update: {},
  },
];

for (const c of cases) {
  test(`diff: ${c.name}`, (t) => {
    const live = { ...LIVE, ...c.live } as Record<string, unknown>;
    const d = compareFields(STORAGE_ZONE_FIELDS, objectOf(c.spec), live, 'storage zone');
    t.deepEqual(
      d.diffs.map((x) => x.field),
      c.fields,
    );
    t.deepEqual(d.update, c.update);
    if (c.immutable) t.regex(d.problems.join('; '), c.immutable);
    else t.deepEqual(d.problems, []);
  });
}
