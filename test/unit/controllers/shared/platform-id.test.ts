/**
 * Ids are parsed once, to their one spelling (issue 44, item 4): the shared parser and the CRD
 * patterns agree on every spelling, and the kinds' reference checks refuse (InvalidSpec) what a
 * stored object may still hold from before the patterns, instead of sending it unchecked: on
 * 72f93ad `imageRegistryId: "03"` (and `"+3"`, `" 3"`, `"3 "`, `"3.0"`, `"0x3"`) was no
 * reference to registry 3 and was sent.
 */
import test from 'ava';
import { pino } from 'pino';
import { createContainerAppKind } from '../../../../src/controllers/containerapp/index.js';
import { createPullZoneConfigKind } from '../../../../src/controllers/pullzoneconfig/index.js';
import {
  APP_ID_PATTERN,
  INTEGER_ID_PATTERN,
  parseAppId,
  parseIntegerId,
  parseRegistryId,
  REGISTRY_ID_PATTERN,
} from '../../../../src/controllers/shared/platform-id.js';
import { TerminalError } from '../../../../src/runtime/errors.js';
import type { IdReference, ManagedKind, ManagedObject } from '../../../../src/runtime/types.js';
import { apiVersionOfKind } from '../../../../src/controllers/kinds.js';

/** Spellings of 3 that are not its one spelling. */
const OTHER_SPELLINGS = ['03', '+3', ' 3', '3 ', '3.0', '0x3', '3e0', '٣', ''];

test('an integer id has one spelling: a positive safe integer, or its decimal digits', (t) => {
  const cases: Array<[value: unknown, id: number | undefined, why: string]> = [
    [3, 3, 'a number'],
    ['3', 3, 'its digits'],
    ['4711', 4711, 'more digits'],
    [0, undefined, '0 names nothing'],
    ['0', undefined, 'nor as a string'],
    [-3, undefined, 'negative'],
    [3.5, undefined, 'fractional'],
    [2 ** 53, undefined, 'beyond a safe integer'],
    ['9007199254740993', undefined, 'digits beyond a safe integer'],
    [null, undefined, 'null'],
    [undefined, undefined, 'unset'],
    ...OTHER_SPELLINGS.map((s): [string, undefined, string] => [s, undefined, `"${s}"`]),
  ];
  for (const [value, id, why] of cases) t.is(parseIntegerId(value), id, why);
});

test('the CRD patterns accept exactly what the parsers accept', (t) => {
  const integer = new RegExp(INTEGER_ID_PATTERN);
  const app = new RegExp(APP_ID_PATTERN);
  const registry = new RegExp(REGISTRY_ID_PATTERN);
  const values = [
    ...OTHER_SPELLINGS,
    '3',
    '4711',
    '0',
    'dockerhub',
    'github',
    'Ab3x-K9_m',
    '-a',
    'a b',
  ];
  for (const v of values) {
    t.is(integer.test(v), parseIntegerId(v) !== undefined, `integer ${JSON.stringify(v)}`);
    t.is(app.test(v), parseAppId(v) !== undefined, `app ${JSON.stringify(v)}`);
    t.is(registry.test(v), parseRegistryId(v) !== undefined, `registry ${JSON.stringify(v)}`);
  }
});

test('a registry is named by its id or by a public registry’s name', (t) => {
  t.deepEqual(parseRegistryId('3'), { id: 3 });
  t.deepEqual(parseRegistryId('dockerhub'), { publicName: 'dockerhub' });
  for (const s of OTHER_SPELLINGS) t.is(parseRegistryId(s), undefined, JSON.stringify(s));
});

const deps = { apiBaseUrl: 'http://cdn.test', log: pino({ level: 'silent' }) };

function referencesOf(kind: ManagedKind, spec: Record<string, unknown>): IdReference[] {
  const obj: ManagedObject = {
    apiVersion: apiVersionOfKind(kind.kind),
    kind: kind.kind,
    metadata: { name: 'o', namespace: 'team-b', uid: 'u' },
    spec,
  };
  return kind.idReferences?.(obj) ?? [];
}

const container = (imageRegistryId: string): Record<string, unknown> => ({
  containerTemplates: [{ name: 'web', imageRegistryId }],
});

test('ContainerApp: another spelling of a registry id is refused, never sent as a non-reference', (t) => {
  const kind = createContainerAppKind(deps);
  t.deepEqual(referencesOf(kind, container('3')), [
    { field: 'spec.containerTemplates[web].imageRegistryId', type: 'ContainerRegistry', id: '3' },
  ]);
  t.deepEqual(referencesOf(kind, container('dockerhub')), [], 'a public registry’s name');
  for (const s of OTHER_SPELLINGS) {
    const err = t.throws(() => referencesOf(kind, container(s)), { instanceOf: TerminalError });
    t.is(err?.reason, 'InvalidSpec', JSON.stringify(s));
    t.true(err?.message.includes('spec.containerTemplates[web].imageRegistryId'), err?.message);
  }
  const appId = t.throws(() => referencesOf(kind, { adoption: { policy: 'ById', id: ' a1' } }), {
    instanceOf: TerminalError,
  });
  t.true(appId?.message.includes('spec.adoption.id'), appId?.message);
});

test('PullZoneConfig: another spelling of a storage zone or app id is refused', (t) => {
  const kind = createPullZoneConfigKind(deps) as unknown as ManagedKind;
  const rule = (type: string, parameter1: string): Record<string, unknown> => ({
    edgeRules: [{ name: 'r', action: { type, parameter1 } }],
  });
  t.deepEqual(referencesOf(kind, rule('OriginStorage', '3')), [
    { field: 'spec.edgeRules[r].action.parameter1', type: 'StorageZone', id: '3' },
  ]);
  for (const s of OTHER_SPELLINGS) {
    t.throws(() => referencesOf(kind, rule('OriginStorage', s)), { instanceOf: TerminalError });
  }
  for (const s of [' app', 'app ', 'a b']) {
    t.throws(() => referencesOf(kind, rule('OriginMagicContainers', s)), {
      instanceOf: TerminalError,
    });
    t.throws(() => referencesOf(kind, { settings: { magicContainersAppId: s } }), {
      instanceOf: TerminalError,
    });
  }
  t.deepEqual(referencesOf(kind, { settings: { magicContainersAppId: '' } }), [], 'empty: none');
});
