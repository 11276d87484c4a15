/**
 * settingsFromRecord (the export's reverse of mapping.ts): a record exported to spec settings
 * and mapped forward again compares equal in diff.ts on every exported setting, every
 * representable setting is exported, secret values are never copied, and values the CRD would
 * refuse are reported instead of written.
 */
import test from 'ava';
import { CdnClient } from '../../../../src/cdn/client.js';
import { diffSettings } from '../../../../src/controllers/pullzoneconfig/diff.js';
import type { SettingField } from '../../../../src/controllers/pullzoneconfig/field-types.js';
import { SETTING_FIELDS } from '../../../../src/controllers/pullzoneconfig/fields.js';
import { toApiSettings } from '../../../../src/controllers/pullzoneconfig/mapping.js';
import { settingsFromRecord } from '../../../../src/controllers/pullzoneconfig/settings-reverse.js';
import { startSimulator } from '../../../../src/simulator/server.js';

/** A live value the CRD accepts, different from the platform's usual default. */
function sampleWire(f: SettingField): unknown {
  // A tier: the platform never holds a value between tiers.
  if (f.roundUpTo) return f.roundUpTo[1];
  switch (f.kind) {
    case 'boolean':
      return true;
    case 'int32':
    case 'int64':
      return f.minimum !== undefined ? f.minimum + 1 : 7;
    case 'double':
      return 1.5;
    case 'enum':
      return (f.enumNames?.length ?? 1) - 1;
    case 'stringList':
      return f.itemPattern ? ['DE', 'us'] : ['b.example', 'a.example'];
    case 'classList':
    case 'optimizerClassList':
      return [{ Name: 'thumb', Properties: { width: '120' } }];
    default:
      return `value-of-${f.api}`;
  }
}

function recordOf(values: Map<SettingField, unknown>): Record<string, unknown> {
  return Object.fromEntries([...values].map(([f, v]) => [f.recordName ?? f.api, v]));
}

function secretValues(
  record: Record<string, unknown>,
  secrets: SettingField[],
): Map<string, string> {
  return new Map(secrets.map((f) => [f.api, String(record[f.recordName ?? f.api])]));
}

test('every setting the record returns round-trips with no diff (synthetic record, all fields)', (t) => {
  const fields = SETTING_FIELDS.filter((f) => !f.writeOnly);
  const record = recordOf(new Map(fields.map((f) => [f, sampleWire(f)])));
  const out = settingsFromRecord(record);
  t.deepEqual(out.skipped, []);
  const exported = new Set([...Object.keys(out.settings), ...out.secrets.map((f) => f.spec)]);
  t.deepEqual(
    fields.map((f) => f.spec).filter((s) => !exported.has(s)),
    [],
    'every readable setting is exported',
  );
  const desired = toApiSettings(out.settings, secretValues(record, out.secrets));
  for (const f of out.secrets) desired[f.api] = record[f.recordName ?? f.api];
  t.deepEqual(diffSettings(desired, record).diffs, []);
  for (const f of out.secrets)
    t.false(JSON.stringify(out.settings).includes(String(record[f.api])), f.api);
});

test('every enum value maps back to its name and forward to the same integer', (t) => {
  for (const f of SETTING_FIELDS.filter((x) => x.kind === 'enum')) {
    (f.enumNames ?? []).forEach((name, i) => {
      const out = settingsFromRecord({ [f.api]: i });
      t.is(out.settings[f.spec], name, `${f.api}=${i}`);
      t.is(toApiSettings(out.settings)[f.api], i, `${f.api}=${name}`);
    });
  }
});

const REFUSED: Array<{
  record: Record<string, unknown>;
  setting: string;
  reason: RegExp;
  why: string;
}> = [
  {
    record: { OriginShieldMaxConcurrentRequests: 0 },
    setting: 'originShieldMaxConcurrentRequests',
    reason: /below the minimum 1/,
    why: 'the CRD minimum is stricter than the platform default',
  },
  {
    record: { IpFamilyPolicy: 9 },
    setting: 'ipFamilyPolicy',
    reason: /not one of/,
    why: 'an enum number without a name cannot be written as a name',
  },
  {
    record: { MaxWebSocketConnections: 30000 },
    setting: 'maxWebSocketConnections',
    reason: /above the maximum 25000/,
    why: 'the platform refuses more than 25,000 WebSocket connections',
  },
  {
    record: { BlockedCountries: ['Germany'] },
    setting: 'blockedCountries',
    reason: /does not match/,
    why: 'list items must be two-letter codes',
  },
];

for (const c of REFUSED) {
  test(`a value the CRD refuses is reported, not exported: ${c.why}`, (t) => {
    const out = settingsFromRecord(c.record);
    t.deepEqual(Object.keys(out.settings), []);
    t.is(out.skipped.length, 1);
    t.is(out.skipped[0]?.setting, c.setting);
    t.regex(out.skipped[0]?.reason ?? '', c.reason);
  });
}

test('unset values stay unmanaged and write-only settings are never exported', (t) => {
  const out = settingsFromRecord({
    OriginUrl: '',
    BlockedIps: [],
    OriginHostHeader: null,
    DnsOriginPort: 8080,
    CacheControlBrowserMaxAgeOverride: 60,
  });
  t.deepEqual(out, { settings: {}, secrets: [], skipped: [] });
});

test('a record read from cdn-sim round-trips with no diff', async (t) => {
  const sim = await startSimulator({ apiKeys: [{ key: 'k' }] });
  const cdn = new CdnClient({ credentials: 'k', baseUrl: sim.url });
  t.teardown(async () => {
    cdn.close();
    await sim.close();
  });
  const zone = await cdn.addPullZone({
    Name: 'reverse-zone',
    OriginUrl: 'https://origin.example',
    IpFamilyPolicy: 3,
    StickySessionType: 1,
    BlockedCountries: ['KP'],
    AWSSigningEnabled: true,
    AWSSigningSecret: 'seeded-secret-value-1',
    OptimizerClasses: [{ Name: 'small', Properties: { width: '64' } }],
  } as never);
  const record = (await cdn.getPullZone(Number(zone.Id))) as Record<string, unknown>;
  const out = settingsFromRecord(record);
  t.false(JSON.stringify(out).includes('seeded-secret-value-1'));
  t.true(out.secrets.some((f) => f.api === 'AWSSigningSecret'));
  t.is(out.settings.stickySessionType, 'On');
  t.is(out.settings.ipFamilyPolicy, 'IPv6Only');
  const desired = toApiSettings(out.settings, secretValues(record, out.secrets));
  t.deepEqual(diffSettings(desired, record).diffs, []);
});
