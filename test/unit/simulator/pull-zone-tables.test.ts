import test from 'ava';
import {
  SETTINGS_FIELDS,
  RECORD_FIELDS,
} from '../../../src/simulator/generated/pull-zone-tables.js';
import { loadOpenApiDocument } from '../../support/openapi-docs.js';
import { buildRecordFields, buildSettingsFields } from '../../support/sim-tables.js';

test('committed settings table equals the official PullZoneSettingsModel (regenerate with test/support/sim-tables.ts)', (t) => {
  t.deepEqual([...SETTINGS_FIELDS], buildSettingsFields(loadOpenApiDocument('core')));
});

test('committed record table equals the official PullZoneModel', (t) => {
  t.deepEqual([...RECORD_FIELDS], buildRecordFields(loadOpenApiDocument('core')));
});

test('the contract Limits table ranges are in the settings table', (t) => {
  const byName = new Map(SETTINGS_FIELDS.map((f) => [f.name, f]));
  const limits: Array<[string, number, number]> = [
    ['OptimizerDesktopMaxWidth', 0, 5000],
    ['OptimizerMobileMaxWidth', 0, 5000],
    ['OptimizerImageQuality', 1, 100],
    ['OptimizerMobileImageQuality', 1, 100],
    ['OriginShieldMaxConcurrentRequests', 1, 10000],
    ['PermaCacheType', 0, 1],
  ];
  for (const [name, min, max] of limits) {
    t.like(byName.get(name), { min, max }, name);
  }
});
