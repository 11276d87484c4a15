/**
 * Bot detection and upload scanning (features.ts): desired and reset values, the comparison
 * with the live object, the minimal PATCH body (nested objects complete) and the export's
 * reverse mapping, which round-trips with no difference.
 */
import test from 'ava';
import {
  buildFeaturePatch,
  desiredFeature,
  diffFeature,
  FEATURES,
  isFeatureField,
  resetFeature,
  specFromFeature,
  type FeatureDef,
  type FeatureValues,
  type WireObject,
} from '../../../../src/controllers/shieldpolicy/features.js';
import type { ShieldPolicySpec } from '../../../../src/controllers/shieldpolicy/types.js';
import {
  defaultBotDetection,
  defaultUploadScanning,
} from '../../../../src/simulator/routes/shield-zone-features.js';

const BOT = FEATURES.find((f) => f.key === 'botDetection')!;
const UPLOAD = FEATURES.find((f) => f.key === 'uploadScanning')!;
const LIVE_BOT: WireObject = defaultBotDetection(7);
const LIVE_UPLOAD: WireObject = defaultUploadScanning(7);

const CASES: Array<{
  why: string;
  def: FeatureDef;
  spec: ShieldPolicySpec;
  live: WireObject;
  fields: string[];
  patch: WireObject;
}> = [
  {
    why: 'no block: not managed, nothing compared',
    def: BOT,
    spec: { uploadScanning: { enabled: true } },
    live: LIVE_BOT,
    fields: [],
    patch: {},
  },
  {
    why: 'an empty block manages nothing',
    def: BOT,
    spec: { botDetection: {} },
    live: LIVE_BOT,
    fields: [],
    patch: {},
  },
  {
    why: 'equal values: no difference, no write',
    def: BOT,
    spec: { botDetection: { executionMode: 'Log', ipAddress: { sensitivity: 'Low' } } },
    live: LIVE_BOT,
    fields: [],
    patch: {},
  },
  {
    why: 'a top-level member is sent alone',
    def: BOT,
    spec: { botDetection: { executionMode: 'Challenge', ipAddress: { sensitivity: 'Low' } } },
    live: LIVE_BOT,
    fields: ['botDetection.executionMode'],
    patch: { executionMode: 1 },
  },
  {
    why: 'a nested member is sent with its whole object (the platform replaces it)',
    def: BOT,
    spec: { botDetection: { browserFingerprint: { aggression: 'High' } } },
    live: LIVE_BOT,
    fields: ['botDetection.browserFingerprint.aggression'],
    patch: { browserFingerprint: { sensitivity: 1, aggression: 3, complexEnabled: false } },
  },
  {
    why: 'two members of one nested object make one object',
    def: BOT,
    spec: {
      botDetection: { browserFingerprint: { sensitivity: 'High', complexEnabled: true } },
    },
    live: LIVE_BOT,
    fields: [
      'botDetection.browserFingerprint.sensitivity',
      'botDetection.browserFingerprint.complexEnabled',
    ],
    patch: { browserFingerprint: { sensitivity: 3, aggression: 1, complexEnabled: true } },
  },
  {
    why: 'an unmanaged nested object is never sent',
    def: BOT,
    spec: { botDetection: { requestIntegrity: { sensitivity: 'Off' } } },
    live: LIVE_BOT,
    fields: ['botDetection.requestIntegrity.sensitivity'],
    patch: { requestIntegrity: { sensitivity: 0 } },
  },
  {
    why: 'upload scanning: spec enabled is the platform isEnabled',
    def: UPLOAD,
    spec: { uploadScanning: { enabled: true, csamScanningMode: 'Off' } },
    live: LIVE_UPLOAD,
    fields: ['uploadScanning.isEnabled'],
    patch: { isEnabled: true },
  },
  {
    why: 'upload scanning: an absent live member differs from a desired one',
    def: UPLOAD,
    spec: { uploadScanning: { antivirusScanningMode: 'Block' } },
    live: { shieldZoneId: 7 },
    fields: ['uploadScanning.antivirusScanningMode'],
    patch: { antivirusScanningMode: 2 },
  },
];

for (const c of CASES) {
  test(`feature diff and patch: ${c.why}`, (t) => {
    const target: FeatureValues = desiredFeature(c.def, c.spec) ?? new Map<string, unknown>();
    const diff = diffFeature(c.def, target, c.live);
    t.deepEqual(
      diff.map((d) => d.field),
      c.fields,
    );
    for (const d of diff) t.true(isFeatureField(d.field), d.field);
    t.deepEqual(buildFeaturePatch(c.def, target, c.live, diff), c.patch);
  });
}

test('plan entries show enum names', (t) => {
  const target = desiredFeature(UPLOAD, { uploadScanning: { csamScanningMode: 'Block' } })!;
  t.deepEqual(diffFeature(UPLOAD, target, LIVE_UPLOAD), [
    { field: 'uploadScanning.csamScanningMode', live: 'Off', desired: 'Block' },
  ]);
});

test('reset values are those of a zone that never changed the feature, managed members only', (t) => {
  const spec: ShieldPolicySpec = {
    botDetection: { executionMode: 'Challenge', browserFingerprint: { aggression: 'Custom' } },
    uploadScanning: { enabled: true, csamScanningMode: 'Block', antivirusScanningMode: 'Log' },
  };
  const bot = resetFeature(BOT, spec)!;
  t.deepEqual([...bot.keys()], ['executionMode', 'browserFingerprint.aggression']);
  t.deepEqual(diffFeature(BOT, bot, LIVE_BOT), [], 'the defaults are the fresh values');
  t.deepEqual(diffFeature(UPLOAD, resetFeature(UPLOAD, spec)!, LIVE_UPLOAD), []);
  t.is(resetFeature(BOT, {}), undefined, 'no block: nothing reset');
});

test('the export round-trips: every member of a live object, no difference', (t) => {
  const live: WireObject = {
    shieldZoneId: 7,
    executionMode: 1,
    requestIntegrity: { sensitivity: 0 },
    ipAddress: { sensitivity: 3 },
    browserFingerprint: { sensitivity: 2, aggression: 4, complexEnabled: true },
  };
  const block = specFromFeature(BOT, live);
  t.deepEqual(block, {
    executionMode: 'Challenge',
    requestIntegrity: { sensitivity: 'Off' },
    ipAddress: { sensitivity: 'High' },
    browserFingerprint: { sensitivity: 'Medium', aggression: 'Custom', complexEnabled: true },
  });
  const target = desiredFeature(BOT, { botDetection: block })!;
  t.is(target.size, BOT.fields.length, 'every member managed');
  t.deepEqual(diffFeature(BOT, target, live), []);
  t.deepEqual(specFromFeature(UPLOAD, { isEnabled: false, csamScanningMode: 9 }), {
    enabled: false,
  });
});
