/**
 * StorageZone mapping and diff, pure: the create body, tier names, status and Secret data, and
 * the comparison of a spec with a live zone (table-driven, each case with its reason).
 */
import test from 'ava';
import type { StorageZone as ZoneRecord } from '../../../../src/cdn/types.js';
import { TerminalError } from '../../../../src/runtime/errors.js';
import { diffStorageZone } from '../../../../src/controllers/storagezone/diff.js';
import {
  passwordSecretData,
  passwordSecretNameOf,
  statusOf,
  tierName,
  toAddRequest,
  zoneNameOf,
} from '../../../../src/controllers/storagezone/mapping.js';
import type {
  StorageZone,
  StorageZoneSpec,
} from '../../../../src/controllers/storagezone/types.js';

function objectOf(spec: StorageZoneSpec, name = 'assets'): StorageZone {
  return {
    apiVersion: 'cdn.operator.io/v1alpha1',
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
  t.is(passwordSecretNameOf(objectOf({ passwordSecretRef: { name: 'creds' } })), 'creds');
});

test('create body: name, region, replication regions and tier as the platform numbers it', (t) => {
  t.deepEqual(
    toAddRequest(objectOf({ region: 'NY', replicationRegions: ['DE', 'SYD'], zoneTier: 'Edge' })),
    { Name: 'assets', Region: 'NY', ReplicationRegions: ['DE', 'SYD'], ZoneTier: 1 },
  );
  t.deepEqual(toAddRequest(objectOf({ region: 'DE' })), { Name: 'assets', Region: 'DE' });
  t.deepEqual(
    toAddRequest(objectOf({ region: 'DE', storageZoneType: 'Supported' })),
    { Name: 'assets', Region: 'DE', StorageZoneType: 1 },
    'an S3 zone is asked for with the add model StorageZoneType (1 = Supported)',
  );
  const err = t.throws(() => toAddRequest(objectOf({})));
  t.true(err instanceof TerminalError);
  t.regex(err?.message ?? '', /spec\.region is required/);
});

test('tier names: numbers map to the document names; absent is Standard', (t) => {
  t.is(tierName(0), 'Standard');
  t.is(tierName(1), 'Edge');
  t.is(tierName(undefined), 'Standard');
  t.is(tierName(7), '7', 'an unknown number is shown, not hidden');
});

test('status carries no password; the Secret data carries both passwords and the endpoint', (t) => {
  const status = statusOf(LIVE);
  t.like(status, {
    storageZoneId: 12,
    name: 'assets',
    region: 'DE',
    zoneTier: 'Standard',
    hostname: 'storage.bunnycdn.com',
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
    immutable: /spec\.region is NY but the zone's main region is DE/,
  },
  {
    name: 'another tier cannot be fixed by an update',
    spec: { region: 'DE', zoneTier: 'Edge' },
    fields: [],
    update: {},
    immutable: /spec\.zoneTier is Edge but the zone's tier is Standard/,
  },
  {
    name: 'S3 support cannot be added to or removed from an existing zone',
    spec: { region: 'DE', storageZoneType: 'Supported' },
    live: { StorageZoneType: 0 },
    fields: [],
    update: {},
    immutable: /spec\.storageZoneType is Supported but the zone's type is NotSupported/,
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
    spec: { storageZoneId: 12 },
    live: { Region: 'SG', ZoneTier: 1 },
    fields: [],
    update: {},
  },
  {
    name: 'adopted by id without spec.name: the zone keeps its own name (metadata.name differs)',
    spec: { storageZoneId: 12 },
    live: { Name: 'made-elsewhere' },
    fields: [],
    update: {},
  },
  {
    name: 'an explicit spec.name that differs cannot be fixed by an update',
    spec: { region: 'DE', name: 'renamed' },
    fields: [],
    update: {},
    immutable: /spec\.name is renamed but the zone is named assets/,
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
    const d = diffStorageZone(objectOf(c.spec), { ...LIVE, ...c.live });
    t.deepEqual(
      d.diffs.map((x) => x.field),
      c.fields,
    );
    t.deepEqual(d.update, c.update);
    if (c.immutable) t.regex(d.immutable.join('; '), c.immutable);
    else t.deepEqual(d.immutable, []);
  });
}
