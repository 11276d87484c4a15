import test from 'ava';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { loadOpenApiDocument } from '../../../support/openapi-docs.js';
import {
  AccessListAction,
  BotExecutionMode,
  BotSensitivity,
  FingerprintAggression,
  ScannerMode,
  DdosExecutionMode,
  DdosSensitivity,
  PayloadLimitAction,
  PlanType,
  WafExecutionMode,
  specNameOf,
  type EnumTable,
} from '../../../../src/controllers/shieldpolicy/enums.js';

// Numbers and names as the official Shield document's x-enum-varnames list them.
const TABLES: Array<{ table: EnumTable<string>; expected: Record<string, number>; why: string }> = [
  { table: WafExecutionMode, expected: { Log: 0, Block: 1 }, why: 'WAFExecutionMode' },
  {
    table: PayloadLimitAction,
    expected: { Block: 0, Log: 1, Ignore: 2 },
    why: 'WAFPayloadLimitAction',
  },
  {
    table: DdosSensitivity,
    expected: { Off: 0, Low: 1, Medium: 2, High: 3, Challenge: 4 },
    why: 'DDoSShieldSensitivity',
  },
  { table: DdosExecutionMode, expected: { Log: 0, Block: 1 }, why: 'DDoSExecutionMode' },
  {
    table: PlanType,
    expected: { Basic: 0, Advanced: 1, Business: 2, Enterprise: 3 },
    why: 'ShieldPlanType',
  },
  {
    table: BotExecutionMode,
    expected: { Log: 0, Challenge: 1 },
    why: 'BotDetectionExecutionMode',
  },
  {
    table: BotSensitivity,
    expected: { Off: 0, Low: 1, Medium: 2, High: 3 },
    why: 'BotDetectionSensitivity',
  },
  {
    table: FingerprintAggression,
    expected: { Unknown: 0, Low: 1, Medium: 2, High: 3, Custom: 4 },
    why: 'BrowserFingerprintAggression',
  },
  {
    table: ScannerMode,
    expected: { Off: 0, Log: 1, Block: 2 },
    why: 'UploadScanningScannerMode',
  },
  {
    table: AccessListAction,
    expected: { None: 0, Allow: 1, Block: 2, Challenge: 3, Log: 4, Bypass: 5 },
    why: 'AccessListAction',
  },
];

for (const { table, expected, why } of TABLES) {
  test(`${why}: every name maps to its number and back`, (t) => {
    t.deepEqual([...table.names], Object.keys(expected));
    for (const [name, value] of Object.entries(expected)) {
      t.is(table.toWire(name), value, `${name} -> ${value}`);
      t.is(table.fromWire(value), name, `${value} -> ${name}`);
    }
  });

  test(`${why}: unknown numbers and names are rejected`, (t) => {
    t.is(table.fromWire(99), undefined, 'a number outside the table has no name');
    t.is(table.fromWire(-1), undefined, 'negative numbers have no name');
    t.is(table.fromWire('1'), undefined, 'strings are not API numbers');
    t.is(table.fromWire(1.5), undefined, 'fractions are not API numbers');
    t.throws(() => table.toWire('Nope'), { message: /cannot map .*"Nope"/ });
  });
}

test('the official document declares the same enum names and numbers', (t) => {
  const doc = loadOpenApiDocument('shield') as unknown as {
    components: { schemas: Record<string, { enum: number[]; 'x-enum-varnames': string[] }> };
  };
  for (const { table, why } of TABLES) {
    const schema = doc.components.schemas[why];
    t.truthy(schema, `${why} exists in the document`);
    t.deepEqual(
      schema!.enum,
      schema!['x-enum-varnames'].map((_, i) => i),
      `${why} numbers are 0..n`,
    );
    t.deepEqual(
      [...table.names],
      schema!['x-enum-varnames'].map((name) => specNameOf(why, name)),
      `${why} names (spec names for the renamed ones)`,
    );
  }
});

test('the CRD lists exactly the enum names of each table', (t) => {
  const crd = parse(
    readFileSync(
      new URL('../../../../crds/shield.cdn.operator.io_shieldpolicies.yaml', import.meta.url),
      'utf8',
    ),
  );
  const root = crd.spec.versions[0].schema.openAPIV3Schema.properties;
  const spec = root.spec.properties;
  const cases: Array<[unknown, EnumTable<string>, string]> = [
    [spec.waf.properties.executionMode.enum, WafExecutionMode, 'waf.executionMode'],
    [
      spec.waf.properties.requestBodyLimitAction.enum,
      PayloadLimitAction,
      'waf.requestBodyLimitAction',
    ],
    [
      spec.waf.properties.responseBodyLimitAction.enum,
      PayloadLimitAction,
      'waf.responseBodyLimitAction',
    ],
    [spec.ddos.properties.shieldSensitivity.enum, DdosSensitivity, 'ddos.shieldSensitivity'],
    [spec.ddos.properties.executionMode.enum, DdosExecutionMode, 'ddos.executionMode'],
    [root.status.properties.planType.enum, PlanType, 'status.planType'],
    [
      spec.botDetection.properties.executionMode.enum,
      BotExecutionMode,
      'botDetection.executionMode',
    ],
    [
      spec.uploadScanning.properties.csamScanningMode.enum,
      ScannerMode,
      'uploadScanning.csamScanningMode',
    ],
    [
      spec.uploadScanning.properties.antivirusScanningMode.enum,
      ScannerMode,
      'uploadScanning.antivirusScanningMode',
    ],
    [
      spec.curatedAccessLists.items.properties.action.enum,
      AccessListAction,
      'curatedAccessLists[].action',
    ],
  ];
  for (const [crdEnum, table, path] of cases) t.deepEqual(crdEnum, [...table.names], path);
});

test('Log and Off send the numbers LogOnly and Disabled had in v1alpha1', (t) => {
  t.is(BotExecutionMode.toWire('Log'), 0);
  t.is(ScannerMode.toWire('Off'), 0);
  t.is(specNameOf('BotDetectionExecutionMode', 'LogOnly'), 'Log');
  t.is(specNameOf('UploadScanningScannerMode', 'Disabled'), 'Off');
  t.is(specNameOf('WAFExecutionMode', 'Log'), 'Log', 'the other enums keep the document names');
});
