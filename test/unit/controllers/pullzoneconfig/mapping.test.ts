import test from 'ava';
import { toSpecName } from '../../../../src/controllers/pullzoneconfig/field-types.js';
import {
  ENUMS,
  FIELDS_BY_API,
  SETTING_FIELDS,
  SPEC_NAME_OVERRIDES,
  secretRefName,
} from '../../../../src/controllers/pullzoneconfig/fields.js';
import {
  fromApiSettings,
  fromWireValue,
  secretSettingRefs,
  toApiSettings,
  toWireValue,
} from '../../../../src/controllers/pullzoneconfig/mapping.js';
import { diffSettings } from '../../../../src/controllers/pullzoneconfig/diff.js';
import { settingSchema } from '../../../../src/controllers/pullzoneconfig/settings-schema.js';
import { readOfficialSettingsModel } from './official.js';

const nameCases: { api: string; spec: string; reason: string }[] = [
  { api: 'OriginUrl', spec: 'originUrl', reason: 'one capital' },
  { api: 'AWSSigningKey', spec: 'awsSigningKey', reason: 'leading acronym followed by a word' },
  { api: 'EnableTLS1_1', spec: 'enableTLS1_1', reason: 'inner acronym and underscore kept' },
  { api: 'IpFamilyPolicy', spec: 'ipFamilyPolicy', reason: 'two-letter word' },
  { api: 'EnableGeoZoneASIA', spec: 'enableGeoZoneASIA', reason: 'trailing acronym kept' },
  { api: 'Type', spec: 'type', reason: 'single word' },
];

for (const c of nameCases) {
  test(`toSpecName ${c.api} -> ${c.spec} (${c.reason})`, (t) => {
    t.is(toSpecName(c.api), c.spec);
  });
}

test('every update-model property of the official document is in the table, once', (t) => {
  const official = readOfficialSettingsModel();
  const names = SETTING_FIELDS.map((f) => f.api);
  t.deepEqual([...names].sort(), Object.keys(official).sort());
  t.is(new Set(SETTING_FIELDS.map((f) => f.spec)).size, SETTING_FIELDS.length, 'spec names unique');
});

test('spec names are the mechanical mapping of the API names, but for the listed renames', (t) => {
  for (const f of SETTING_FIELDS) {
    t.is(f.spec, SPEC_NAME_OVERRIDES[f.api] ?? toSpecName(f.api), f.api);
  }
});

const renamed: { api: string; spec: string; reason: string }[] = [
  { api: 'EnableTLS1', spec: 'enableTLS10', reason: 'the version written whole' },
  { api: 'EnableTLS1_1', spec: 'enableTLS11', reason: 'no underscore' },
  { api: 'OriginConnectTimeout', spec: 'originConnectTimeoutSeconds', reason: 'unit' },
  { api: 'OriginResponseTimeout', spec: 'originResponseTimeoutSeconds', reason: 'unit' },
  { api: 'OriginRetryDelay', spec: 'originRetryDelaySeconds', reason: 'unit' },
  {
    api: 'CacheControlMaxAgeOverride',
    spec: 'cacheControlMaxAgeOverrideSeconds',
    reason: 'unit',
  },
  {
    api: 'CacheControlPublicMaxAgeOverride',
    spec: 'cacheControlPublicMaxAgeOverrideSeconds',
    reason: 'unit',
  },
  { api: 'MonthlyBandwidthLimit', spec: 'monthlyBandwidthLimitBytes', reason: 'unit' },
];

for (const c of renamed) {
  test(`setting ${c.api} is spec.settings.${c.spec} (${c.reason}), sent under its API name`, (t) => {
    t.is(FIELDS_BY_API.get(c.api)?.spec, c.spec);
    const wire = toApiSettings({ [c.spec]: c.api.startsWith('Enable') ? true : 30 });
    t.deepEqual(Object.keys(wire), [c.api]);
  });
}

test('enum names match the official x-enumNames (contract names for IpFamilyPolicy and Type)', (t) => {
  const official = readOfficialSettingsModel();
  for (const f of SETTING_FIELDS.filter((x) => x.kind === 'enum')) {
    t.deepEqual([...(f.enumNames ?? [])], official[f.api]?.enumNames, f.api);
  }
  t.deepEqual(FIELDS_BY_API.get('IpFamilyPolicy')?.enumNames, ENUMS.IpFamilyPolicy);
  t.deepEqual(FIELDS_BY_API.get('Type')?.enumNames, ['Premium', 'Volume']);
});

test('limits match the official document (minimum/maximum)', (t) => {
  const official = readOfficialSettingsModel();
  for (const f of SETTING_FIELDS) {
    // Tier values and their bound are stated in prose only (MaxWebSocketConnections: up to 25,000).
    if (f.kind === 'enum' || f.roundUpTo) continue;
    t.is(f.minimum, official[f.api]?.minimum, `${f.api} minimum`);
    t.is(f.maximum, official[f.api]?.maximum, `${f.api} maximum`);
  }
});

test('MaxWebSocketConnections accepts what the document accepts: 0 to 25000, not only the tiers', (t) => {
  const f = FIELDS_BY_API.get('MaxWebSocketConnections')!;
  const [, schema] = settingSchema(f);
  t.is(schema.minimum, 0);
  t.is(schema.maximum, 25000, 'values over 25,000 are rejected by the platform');
  t.is(schema.enum, undefined, 'a value between tiers is accepted (the platform rounds it up)');
});

const websocketCases: { spec: number; wire: number; reason: string }[] = [
  { spec: 0, wire: 0, reason: 'zero stays zero' },
  { spec: 300, wire: 500, reason: 'below the first tier: the first tier' },
  { spec: 1000, wire: 1000, reason: 'a tier stays itself' },
  { spec: 1001, wire: 2500, reason: 'between tiers: the next tier up' },
  { spec: 24000, wire: 25000, reason: 'just below the last tier' },
];

for (const c of websocketCases) {
  test(`MaxWebSocketConnections ${c.spec} is sent as ${c.wire}, the tier the platform keeps (${c.reason})`, (t) => {
    t.deepEqual(toApiSettings({ maxWebSocketConnections: c.spec }), {
      MaxWebSocketConnections: c.wire,
    });
    t.deepEqual(
      diffSettings(toApiSettings({ maxWebSocketConnections: c.spec }), {
        MaxWebSocketConnections: c.wire,
      }).diffs,
      [],
      'in sync once the platform holds the tier: no perpetual drift',
    );
  });
}

const enumFields = SETTING_FIELDS.filter((f) => f.kind === 'enum');
for (const f of enumFields) {
  test(`enum ${f.api}: every name maps to its integer and back`, (t) => {
    (f.enumNames ?? []).forEach((name, i) => {
      t.is(toWireValue(f, name), i, name);
      t.is(fromWireValue(f, i), name, String(i));
    });
  });
}

test('an unknown enum name is rejected with field, value and choices', (t) => {
  const f = FIELDS_BY_API.get('IpFamilyPolicy')!;
  const err = t.throws(() => toWireValue(f, 'Both'));
  t.regex(err.message, /settings\.ipFamilyPolicy.*"Both".*IPv4Only, DualStack/);
});

test('examples from the issue: DualStack -> 1, Volume -> 1', (t) => {
  t.deepEqual(toApiSettings({ ipFamilyPolicy: 'DualStack', type: 'Volume' }), {
    IpFamilyPolicy: 1,
    Type: 1,
  });
});

test('toApiSettings maps only the fields present', (t) => {
  t.deepEqual(toApiSettings({ originShieldMaxConcurrentRequests: 300 }), {
    OriginShieldMaxConcurrentRequests: 300,
  });
  t.deepEqual(toApiSettings(undefined), {});
  t.deepEqual(toApiSettings({}), {});
});

test('round trip spec -> API -> spec for every non-secret field', (t) => {
  const spec: Record<string, unknown> = {};
  for (const f of SETTING_FIELDS) {
    if (f.secret) continue;
    spec[f.spec] = sampleValue(f.kind, f.enumNames, f.minimum);
  }
  const api = toApiSettings(spec);
  t.is(Object.keys(api).length, SETTING_FIELDS.filter((f) => !f.secret).length);
  t.deepEqual(fromApiSettings(api), spec);
});

test('optimizer classes map to {Name, Properties}', (t) => {
  const api = toApiSettings({
    optimizerClasses: [{ name: 'thumb', properties: { width: '100' } }],
  });
  t.deepEqual(api, { OptimizerClasses: [{ Name: 'thumb', Properties: { width: '100' } }] });
});

test('secret settings come from resolved Secret values, never from the spec', (t) => {
  const settings = {
    awsSigningSecretAccessKeySecretRef: { name: 's3', key: 'secret' },
    logForwardingTokenSecretRef: { name: 'logs', key: 'token' },
  };
  const refs = secretSettingRefs(settings);
  t.deepEqual([...refs.keys()].sort(), ['AWSSigningSecret', 'LogForwardingToken']);
  const api = toApiSettings(
    settings,
    new Map([
      ['AWSSigningSecret', 'v1'],
      ['LogForwardingToken', 'v2'],
    ]),
  );
  t.deepEqual(api, { AWSSigningSecret: 'v1', LogForwardingToken: 'v2' });
  t.deepEqual(fromApiSettings(api), {}, 'secret values are never mapped back');
  for (const f of SETTING_FIELDS.filter((x) => x.secret)) t.true(secretRefName(f).endsWith('Ref'));
});

test('an unknown setting name throws', (t) => {
  t.throws(() => toApiSettings({ noSuchSetting: true }), { message: /settings\.noSuchSetting/ });
});

function sampleValue(
  kind: string,
  names: readonly string[] | undefined,
  min: number | undefined,
): unknown {
  switch (kind) {
    case 'boolean':
      return true;
    case 'string':
      return 'x';
    case 'int32':
    case 'int64':
      return min ?? 7;
    case 'double':
      return 1.5;
    case 'stringList':
      return ['DE'];
    case 'enum':
      return names?.[names.length - 1];
    default:
      return [{ name: 'a', properties: { k: 'v' } }];
  }
}
