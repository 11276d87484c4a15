/* eslint-disable @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-call -- walking a schema */
/**
 * The VideoLibrary CRD: the enums read from the official core document agree with the names the
 * controller sends by index, the listed values agree with cdn-sim's, and the replication
 * regions are fixed at creation. The generated file, its descriptions and the shared fragments
 * are checked for every kind (test/unit/crds/, test/unit/controllers/shared/).
 */
import test from 'ava';
import {
  CODECS,
  DRM_VERSIONS,
  ENCODING_TIERS,
  REPLICATION_REGIONS,
  RESOLUTIONS,
  WIDEVINE_LEVELS,
} from '../../../../src/controllers/videolibrary/fields.js';
import { VIDEO_LIBRARY } from '../../../../src/controllers/videolibrary/kind.js';
import { REPLICATION_REGIONS as SIM_REGIONS } from '../../../../src/simulator/routes/storage-zones-model.js';
import {
  CODECS as SIM_CODECS,
  RESOLUTIONS as SIM_RESOLUTIONS,
} from '../../../../src/simulator/routes/video-library-body.js';
import { builtCrd, rootSchema, type Json } from '../../../support/crds.js';

const spec = rootSchema(await builtCrd(VIDEO_LIBRARY)).properties.spec.properties as Json;

const ENUMS: Array<[string, unknown, readonly string[]]> = [
  ['EncodingTier', spec.encoding.properties.tier.enum, ENCODING_TIERS],
  ['DrmVersion', spec.drm.properties.version.enum, DRM_VERSIONS],
  [
    'WidevineMinClientSecurityLevel',
    spec.drm.properties.widevineMinSecurityLevel.enum,
    WIDEVINE_LEVELS,
  ],
];

for (const [name, fromDocument, sent] of ENUMS) {
  test(`${name}: the document's names, in the order the controller sends them by index`, (t) => {
    t.deepEqual(fromDocument, [...sent]);
  });
}

test('resolutions, codecs and replication regions agree with cdn-sim', (t) => {
  t.deepEqual([...RESOLUTIONS], [...SIM_RESOLUTIONS]);
  t.deepEqual([...CODECS], [...SIM_CODECS]);
  t.deepEqual([...REPLICATION_REGIONS], [...SIM_REGIONS]);
});

test('replication regions are fixed at creation; the lists are sets of the listed values', (t) => {
  t.deepEqual(
    spec.replicationRegions['x-kubernetes-validations'].map((r: Json) => r.rule),
    ['self == oldSelf'],
  );
  t.is(spec.encoding.properties.resolutions['x-kubernetes-list-type'], 'set');
  t.regex('1080p', new RegExp(spec.encoding.properties.resolutions.items.pattern as string));
  t.notRegex('999p', new RegExp(spec.encoding.properties.resolutions.items.pattern as string));
});
