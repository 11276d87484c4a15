/* eslint-disable @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-call -- walking a schema */
/**
 * The StorageZone CRD: generated and committed as generated, a description on every field,
 * enums read from the official core document, the shared account/adoption/ownership fragments,
 * and YAML-1.1-safe emission (a region or tier code never turns into a boolean or number).
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { GENERATORS, renderCrd } from '../../../../hack/generate-crds.js';
import { buildStorageZoneCrd } from '../../../../hack/crds/storagezone.js';
import { ACCOUNT_REF_SCHEMA } from '../../../../src/controllers/shared/account-schema.js';
import {
  adoptionSchema,
  ownershipStatusSchema,
} from '../../../../src/controllers/shared/ownership-schema.js';
import { S3_TYPES, ZONE_TIERS } from '../../../../src/controllers/storagezone/types.js';
import {
  MAIN_REGIONS,
  REPLICATION_REGIONS,
} from '../../../../src/simulator/routes/storage-zones-model.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- walking a schema
type Json = Record<string, any>;

const ROOT = join(import.meta.dirname, '..', '..', '..', '..');
const FILE = 'crds/cdn.operator.io_storagezones.yaml';
const gen = GENERATORS.find((g) => g.path === FILE);

function schema(): Json {
  const crd: Json = buildStorageZoneCrd();
  return crd.spec.versions[0].schema.openAPIV3Schema;
}

test('the committed CRD is the generator output (run hack/generate-crds.ts)', (t) => {
  t.truthy(gen, 'hack/generate-crds.ts has a generator for the StorageZone CRD');
  const committed = readFileSync(join(ROOT, FILE), 'utf8');
  t.true(committed.startsWith('# GENERATED FILE'));
  t.is(committed, renderCrd(gen!));
});

test('every field of the shipped CRD has a description (kubectl explain)', (t) => {
  const missing: string[] = [];
  const walk = (node: Json, path: string): void => {
    for (const [name, child] of Object.entries((node.properties ?? {}) as Json)) {
      if (path === '' && name === 'metadata') continue;
      if (!child.description) missing.push(`${path}.${name}`);
      walk(child, `${path}.${name}`);
    }
    if (node.items) walk(node.items, `${path}[]`);
  };
  const committed: Json = parse(readFileSync(join(ROOT, FILE), 'utf8'));
  walk(committed.spec.versions[0].schema.openAPIV3Schema, '');
  t.deepEqual(missing, []);
});

test('enums come from the official document and agree with cdn-sim and the controller', (t) => {
  const spec = schema().properties.spec.properties;
  t.deepEqual(spec.region.enum, [...MAIN_REGIONS]);
  t.deepEqual(spec.replicationRegions.items.enum, [...REPLICATION_REGIONS]);
  t.deepEqual(spec.zoneTier.enum, [...ZONE_TIERS]);
  t.deepEqual(spec.storageZoneType.enum, [...S3_TYPES], 'S3 support, from StorageZoneS3Type');
});

test("shared fragments: accountRef, adoption, ownership are the other kinds' ones", (t) => {
  const root = schema();
  t.deepEqual(root.properties.spec.properties.accountRef, ACCOUNT_REF_SCHEMA);
  t.deepEqual(
    root.properties.spec.properties.adoption,
    adoptionSchema('storage zone', 'spec.name (or metadata.name)'),
  );
  t.deepEqual(root.properties.status.properties.ownership, ownershipStatusSchema);
  t.deepEqual(root.properties.spec.properties.deletionPolicy.enum, ['Delete', 'Orphan']);
  t.is(root.properties.spec.properties.deletionPolicy.default, undefined, 'no schema default');
});

test('immutability and add-only replication are CEL rules on the fields', (t) => {
  const spec = schema().properties.spec.properties;
  for (const f of ['name', 'region', 'zoneTier', 'storageZoneType', 'storageZoneId']) {
    t.deepEqual(
      spec[f]['x-kubernetes-validations'].map((r: Json) => r.rule),
      ['self == oldSelf'],
      f,
    );
  }
  t.deepEqual(
    spec.replicationRegions['x-kubernetes-validations'].map((r: Json) => r.rule),
    ['oldSelf.all(r, r in self)'],
  );
});

test('YAML 1.1 readers see the region codes as strings', (t) => {
  const committed = readFileSync(join(ROOT, FILE), 'utf8');
  const doc: Json = parse(committed, { version: '1.1' });
  const spec = doc.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties;
  for (const v of [
    ...spec.region.enum,
    ...spec.replicationRegions.items.enum,
    ...spec.zoneTier.enum,
  ])
    t.is(typeof v, 'string');
});
