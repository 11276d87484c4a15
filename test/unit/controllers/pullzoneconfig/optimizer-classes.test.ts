/**
 * Typed optimizer classes (issue 48): every documented optimizer parameter is a typed member
 * of `spec.settings.optimizerClasses[]` with its type and range in the CRD, mapped to the
 * platform's `{Name, Properties}` strings and back. Before, a class was `{name, properties}`
 * with free strings: `quality: 80` was dropped (never sent) and `properties.quality: "abc"`
 * was accepted.
 */
import test from 'ava';
import { CdnClient } from '../../../../src/cdn/client.js';
import { diffSettings } from '../../../../src/controllers/pullzoneconfig/diff.js';
import { SETTING_FIELDS } from '../../../../src/controllers/pullzoneconfig/fields.js';
import { toApiSettings } from '../../../../src/controllers/pullzoneconfig/mapping.js';
import {
  checkValue,
  settingsFromRecord,
} from '../../../../src/controllers/pullzoneconfig/settings-reverse.js';
import { settingSchema } from '../../../../src/controllers/pullzoneconfig/settings-schema.js';
import type { PullZoneConfig } from '../../../../src/controllers/pullzoneconfig/types.js';
import type { Schema } from '../../../../src/controllers/shared/crd-schema.js';
import { startSimulator } from '../../../../src/simulator/server.js';
import { runPass, simExternal } from './sim-pass.js';

const field = SETTING_FIELDS.find((f) => f.api === 'OptimizerClasses')!;
const listSchema = settingSchema(field)[1];
const item = listSchema.items as Schema;
const props = item.properties as Record<string, Schema>;

const TYPED = {
  name: 'thumb',
  width: 320,
  height: 200,
  aspectRatio: '16:9',
  quality: 80,
  sharpen: true,
  blur: 5,
  crop: '800,600',
  cropGravity: 'NorthWest',
  flip: false,
  flop: true,
  brightness: -10,
  gamma: 20,
  saturation: 15,
  contrast: 5,
  hue: 33,
  sepia: 40,
  autoOptimize: 'High',
};

const WIRE = {
  Name: 'thumb',
  Properties: {
    width: '320',
    height: '200',
    aspect_ratio: '16:9',
    quality: '80',
    sharpen: 'true',
    blur: '5',
    crop: '800,600',
    crop_gravity: 'northwest',
    flip: 'false',
    flop: 'true',
    brightness: '-10',
    gamma: '20',
    saturation: '15',
    contrast: '5',
    hue: '33',
    sepia: '40',
    auto_optimize: 'high',
  },
};

const schemaCases: { member: string; expect: Schema; why: string }[] = [
  { member: 'width', expect: { type: 'integer', minimum: 0 }, why: 'pixels, not negative' },
  { member: 'height', expect: { type: 'integer', minimum: 0 }, why: 'pixels, not negative' },
  { member: 'quality', expect: { type: 'integer', minimum: 0, maximum: 100 }, why: 'percent' },
  { member: 'blur', expect: { type: 'integer', minimum: 0, maximum: 100 }, why: 'strength' },
  { member: 'brightness', expect: { minimum: -100, maximum: 100 }, why: 'signed adjustment' },
  { member: 'gamma', expect: { minimum: -100, maximum: 100 }, why: 'signed adjustment' },
  { member: 'saturation', expect: { minimum: -100, maximum: 100 }, why: 'signed adjustment' },
  { member: 'contrast', expect: { minimum: -100, maximum: 100 }, why: 'signed adjustment' },
  { member: 'hue', expect: { minimum: 0, maximum: 100 }, why: 'unsigned adjustment' },
  { member: 'sepia', expect: { minimum: 0, maximum: 100 }, why: 'strength' },
  { member: 'sharpen', expect: { type: 'boolean' }, why: 'an on/off filter' },
  { member: 'flip', expect: { type: 'boolean' }, why: 'an on/off transform' },
  { member: 'flop', expect: { type: 'boolean' }, why: 'an on/off transform' },
  { member: 'autoOptimize', expect: { enum: ['Low', 'Medium', 'High'] }, why: 'three levels' },
];

for (const c of schemaCases) {
  test(`CRD: ${c.member} is typed (${c.why})`, (t) => {
    t.like(props[c.member], c.expect);
    t.truthy(props[c.member]?.description);
  });
}

test('CRD: cropGravity lists the documented anchors, crop and aspectRatio their formats', (t) => {
  t.deepEqual(props.cropGravity?.enum, [
    'Center',
    'North',
    'South',
    'East',
    'West',
    'NorthEast',
    'NorthWest',
    'SouthEast',
    'SouthWest',
  ]);
  t.is(checkValue('800,600', props.crop!), undefined);
  t.is(checkValue('800,600,10,20', props.crop!), undefined);
  t.truthy(checkValue('800x600', props.crop!));
  t.is(checkValue('16:9', props.aspectRatio!), undefined);
  t.truthy(checkValue('wide', props.aspectRatio!));
});

const refused: { value: Record<string, unknown>; why: string }[] = [
  { value: { name: 'a', quality: 101 }, why: 'quality above 100' },
  { value: { name: 'a', brightness: -101 }, why: 'brightness below -100' },
  { value: { name: 'a', width: -1 }, why: 'a negative width' },
  { value: { name: 'a', cropGravity: 'top' }, why: 'an undocumented anchor' },
  { value: { name: 'a', sharpen: 'yes' }, why: 'a boolean written as text' },
  { value: { name: 'a', autoOptimize: 'max' }, why: 'an unknown level' },
  { value: { name: 'a', cropGravity: 'north' }, why: 'an anchor spelt as its query value' },
  { value: { name: 'a', autoOptimize: 'high' }, why: 'a level spelt as its query value' },
];

for (const c of refused) {
  test(`CRD refuses ${c.why}`, (t) => {
    t.truthy(checkValue([c.value], listSchema));
  });
}

test('CRD: a typed parameter cannot be repeated in the free properties (CEL)', (t) => {
  const rules = item['x-kubernetes-validations'] as { rule: string }[];
  t.is(rules.length, 1);
  for (const wire of ['width', 'quality', 'crop_gravity', 'auto_optimize', 'aspect_ratio'])
    t.true(rules[0]!.rule.includes(`'${wire}'`), wire);
  t.like(item.properties, { properties: { maxProperties: 50 } });
  t.is(listSchema.maxItems, 100);
});

test('CRD: optimizer classes and image blueprints are map lists keyed by the required name', (t) => {
  const blueprints = SETTING_FIELDS.find((f) => f.api === 'BunnyAiImageBlueprints')!;
  for (const schema of [listSchema, settingSchema(blueprints)[1]]) {
    t.like(schema, {
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      items: { required: ['name'] },
    });
  }
});

test('typed members map to the query strings the platform stores, free properties as written', (t) => {
  const api = toApiSettings({
    optimizerClasses: [TYPED, { name: 'face', width: 100, properties: { face_crop: 'true' } }],
  });
  t.deepEqual(api.OptimizerClasses, [
    WIRE,
    { Name: 'face', Properties: { width: '100', face_crop: 'true' } },
  ]);
});

test('a live class maps back to typed members; an unparsable value is reported, not exported', (t) => {
  const out = settingsFromRecord({
    OptimizerClasses: [WIRE, { Name: 'x', Properties: { face_crop: '10,10' } }],
  });
  t.deepEqual(out.settings.optimizerClasses, [
    TYPED,
    { name: 'x', properties: { face_crop: '10,10' } },
  ]);
  const bad = settingsFromRecord({
    OptimizerClasses: [{ Name: 'x', Properties: { quality: 'best' } }],
  });
  t.deepEqual(bad.settings, {});
  t.is(bad.skipped[0]?.setting, 'optimizerClasses');
});

test('round trip against cdn-sim: created with every typed member, then no write; export equals the spec', async (t) => {
  const sim = await startSimulator({ apiKeys: [{ key: 'opt-key' }] });
  const client = new CdnClient({
    credentials: 'opt-key',
    baseUrl: sim.url,
    retry: { maxAttempts: 1 },
  });
  t.teardown(async () => {
    client.close();
    await sim.close();
  });
  const ext = simExternal(client, () => new Date('2026-05-06T07:08:09Z'));
  const obj: PullZoneConfig = {
    apiVersion: 'pullzones.cdn.operator.io/v1beta1',
    kind: 'PullZoneConfig',
    metadata: { name: 'opt', namespace: 'team-a', uid: 'uid-opt' },
    spec: {
      name: 'opt-zone',
      settings: { originUrl: 'https://origin.example', optimizerClasses: [TYPED] },
    },
  };
  const created = await runPass(ext, obj);
  const id = Number(created.obj.status?.pullZoneId);
  const record = (await client.getPullZone(id)) as Record<string, unknown>;
  t.deepEqual(record.OptimizerClasses, [WIRE], 'the platform stores every parameter');
  const second = await runPass(ext, created.obj);
  t.true(second.obs.upToDate, 'nothing differs after the create');
  const exported = settingsFromRecord(record);
  t.deepEqual(exported.settings.optimizerClasses, [TYPED]);
  t.deepEqual(diffSettings(toApiSettings(exported.settings), record).diffs, []);
  t.is(sim.calls.snapshot().rejectedByDocument.count, 0, 'nothing rejected by the documents');
});
