import test from 'ava';
import {
  NOT_RETURNED,
  diffSettings,
  hashValue,
  settingEqual,
  writeOnlyHashesAfter,
} from '../../../../src/controllers/pullzoneconfig/diff.js';
import { FIELDS_BY_API } from '../../../../src/controllers/pullzoneconfig/fields.js';
import type { SettingField } from '../../../../src/controllers/pullzoneconfig/field-types.js';
import { REDACTED, UNSET } from '../../../../src/controllers/shared/plan.js';

const field = (api: string): SettingField => FIELDS_BY_API.get(api)!;

const equalCases: {
  api: string;
  desired: unknown;
  live: unknown;
  equal: boolean;
  reason: string;
}[] = [
  { api: 'OriginUrl', desired: '', live: null, equal: true, reason: 'empty string equals null' },
  {
    api: 'OriginUrl',
    desired: 'https://a',
    live: 'https://b',
    equal: false,
    reason: 'different strings',
  },
  { api: 'BlockedIps', desired: [], live: null, equal: true, reason: 'empty list equals null' },
  {
    api: 'BlockedIps',
    desired: ['1.1.1.1', '2.2.2.2'],
    live: ['2.2.2.2', '1.1.1.1'],
    equal: true,
    reason: 'lists compare as sets',
  },
  {
    api: 'BlockedIps',
    desired: ['1.1.1.1'],
    live: ['1.1.1.1', '2.2.2.2'],
    equal: false,
    reason: 'extra live entry',
  },
  { api: 'EnableLogging', desired: false, live: null, equal: false, reason: 'false is not unset' },
  { api: 'OriginRetries', desired: 0, live: 0, equal: true, reason: 'zero' },
  { api: 'LimitRatePerSecond', desired: 5, live: 5.0, equal: true, reason: 'int vs double' },
  { api: 'IpFamilyPolicy', desired: 1, live: 2, equal: false, reason: 'enum integers' },
  {
    api: 'OptimizerClasses',
    desired: [{ Name: 'a', Properties: {} }],
    live: [{ Name: 'a', Properties: null }],
    equal: true,
    reason: 'null properties equal empty',
  },
];

for (const c of equalCases) {
  test(`settingEqual ${c.api}: ${c.reason}`, (t) => {
    t.is(settingEqual(field(c.api), c.desired, c.live), c.equal);
  });
}

test('only managed (desired) fields are compared; unmanaged live values never reported', (t) => {
  const live = {
    OriginUrl: 'https://o',
    EnableLogging: true,
    OriginShieldMaxConcurrentRequests: 200,
  };
  const d = diffSettings({ OriginShieldMaxConcurrentRequests: 300 }, live);
  t.deepEqual(d.diffs, [
    { field: 'OriginShieldMaxConcurrentRequests', live: '200', desired: '300' },
  ]);
  t.deepEqual(d.changed, { OriginShieldMaxConcurrentRequests: 300 });
});

test('in sync: no diffs and an empty update body', (t) => {
  const d = diffSettings(
    { EnableLogging: true, BlockedIps: [] },
    { EnableLogging: true, BlockedIps: null },
  );
  t.deepEqual(d, { diffs: [], changed: {} });
});

test('enum values render as names', (t) => {
  const d = diffSettings({ IpFamilyPolicy: 3 }, { IpFamilyPolicy: 1 });
  t.deepEqual(d.diffs, [{ field: 'IpFamilyPolicy', live: 'DualStack', desired: 'IPv6Only' }]);
});

test('secret settings are compared but never rendered', (t) => {
  const d = diffSettings({ AWSSigningSecret: 'new-secret' }, { AWSSigningSecret: 'old-secret' });
  t.deepEqual(d.diffs, [{ field: 'AWSSigningSecret', live: REDACTED, desired: REDACTED }]);
  t.false(JSON.stringify(d.diffs).includes('secret-'), 'no value in the plan');
  const unset = diffSettings({ LogForwardingToken: 'tok' }, {});
  t.is(unset.diffs[0]?.live, UNSET);
});

test('record names that differ from the update model are read from the record name', (t) => {
  t.deepEqual(diffSettings({ EnableWebpVary: true }, { EnableWebPVary: true }).diffs, []);
});

test('write-only settings differ until their hash is recorded, then only on change', (t) => {
  const first = diffSettings({ DnsOriginPort: 8080 }, {});
  t.deepEqual(first.diffs, [{ field: 'DnsOriginPort', live: NOT_RETURNED, desired: '8080' }]);
  const hashes = writeOnlyHashesAfter(first.changed);
  t.deepEqual(hashes, { DnsOriginPort: hashValue(8080) });
  t.deepEqual(diffSettings({ DnsOriginPort: 8080 }, {}, hashes).diffs, []);
  t.is(diffSettings({ DnsOriginPort: 9090 }, {}, hashes).diffs.length, 1);
});

test('writeOnlyHashesAfter keeps earlier hashes and ignores readable settings', (t) => {
  const out = writeOnlyHashesAfter(
    { OriginUrl: 'x', DnsOriginScheme: 'https' },
    { DnsOriginPort: 'h' },
  );
  t.deepEqual(Object.keys(out).sort(), ['DnsOriginPort', 'DnsOriginScheme']);
});
