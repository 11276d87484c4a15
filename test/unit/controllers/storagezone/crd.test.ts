/* eslint-disable @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-call -- walking a schema */
/**
 * The StorageZone CRD: enums read from the official core document, immutability rules, and
 * YAML-1.1-safe emission (a region or tier code never turns into a boolean or number). The
 * generated file, its descriptions and the shared fragments are checked for every kind
 * (test/unit/crds/, test/unit/controllers/shared/).
 */
import test from 'ava';
import { STORAGE_ZONE } from '../../../../src/controllers/storagezone/kind.js';
import { S3_TYPES, ZONE_TIERS } from '../../../../src/controllers/storagezone/fields.js';
import {
  MAIN_REGIONS,
  REPLICATION_REGIONS,
} from '../../../../src/simulator/routes/storage-zones-model.js';
import { builtCrd, rootSchema, shippedCrd, type Json } from '../../../support/crds.js';

const crd = await builtCrd(STORAGE_ZONE);

function schema(): Json {
  return rootSchema(crd);
}

test('enums come from the official document and agree with cdn-sim and the controller', (t) => {
  const spec = schema().properties.spec.properties;
  t.deepEqual(spec.region.enum, [...MAIN_REGIONS]);
  t.deepEqual(spec.replicationRegions.items.enum, [...REPLICATION_REGIONS]);
  t.deepEqual(spec.zoneTier.enum, [...ZONE_TIERS]);
  t.deepEqual(spec.storageZoneType.enum, [...S3_TYPES], 'S3 support, from StorageZoneS3Type');
});

test('immutability and add-only replication are CEL rules on the fields', (t) => {
  const spec = schema().properties.spec.properties;
  for (const f of ['name', 'region', 'zoneTier', 'storageZoneType']) {
    t.deepEqual(
      spec[f]['x-kubernetes-validations'].map((r: Json) => r.rule),
      ['self == oldSelf'],
      f,
    );
  }
  t.deepEqual(
    spec.adoption.properties.id['x-kubernetes-validations'].map((r: Json) => r.rule),
    ['self == oldSelf'],
    'adoption.id',
  );
  t.deepEqual(
    spec.replicationRegions['x-kubernetes-validations'].map((r: Json) => r.rule),
    ['oldSelf.all(r, r in self)'],
  );
});

test('YAML 1.1 readers see the region codes as strings', (t) => {
  const spec = rootSchema(shippedCrd(STORAGE_ZONE)).properties.spec.properties;
  for (const v of [
    ...spec.region.enum,
    ...spec.replicationRegions.items.enum,
    ...spec.zoneTier.enum,
  ])
    t.is(typeof v, 'string');
});
