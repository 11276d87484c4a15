/**
 * Every raw id of another kind's platform resource that a spec can hold is declared as a
 * reference (`ManagedKind.idReferences`), so the runtime checks it against the claim index
 * like a `*Ref` (issue 28, item 6; the check itself: test/unit/runtime/id-references.test.ts).
 * A field missing here is a side door into another namespace's resources.
 */
import test from 'ava';
import { pino } from 'pino';
import { createContainerAppKind } from '../../../../src/controllers/containerapp/index.js';
import { createPullZoneConfigKind } from '../../../../src/controllers/pullzoneconfig/index.js';
import { createShieldPolicyKind } from '../../../../src/controllers/shieldpolicy/index.js';
import { createStorageZoneKind } from '../../../../src/controllers/storagezone/index.js';
import type { IdReference, ManagedKind, ManagedObject } from '../../../../src/runtime/types.js';
import { apiVersionOfKind } from '../../../../src/controllers/kinds.js';

const deps = { apiBaseUrl: 'http://cdn.test', log: pino({ level: 'silent' }) };

function objectOf(kind: string, spec: Record<string, unknown>): ManagedObject {
  return {
    apiVersion: apiVersionOfKind(kind),
    kind,
    metadata: { name: 'o', namespace: 'team-b', uid: 'u' },
    spec,
  };
}

function referencesOf(kind: ManagedKind, spec: Record<string, unknown>): IdReference[] {
  const refs = kind.idReferences?.(objectOf(kind.kind, spec)) ?? [];
  return [...refs].sort((a, b) => a.field.localeCompare(b.field));
}

const sz = (field: string, id: string): IdReference => ({ field, type: 'StorageZone', id });
const pz = (field: string, id: string): IdReference => ({ field, type: 'PullZoneConfig', id });
const app = (field: string, id: string): IdReference => ({ field, type: 'ContainerApp', id });

test('PullZoneConfig: origin, perma-cache and logging storage zones, container app origin, edge rule origins', (t) => {
  const kind = createPullZoneConfigKind(deps) as unknown as ManagedKind;
  const spec = {
    settings: {
      originType: 'StorageZone',
      storageZoneId: 42,
      permaCacheStorageZoneId: 43,
      loggingStorageZoneId: '44',
      magicContainersAppId: 'app-1',
    },
    edgeRules: [
      {
        name: 'assets',
        action: { type: 'OriginStorage', parameter1: '45' },
        extraActions: [{ type: 'OriginMagicContainers', parameter1: 'app-2' }],
        triggers: [{ type: 'Url', patternMatches: ['*/assets/*'] }],
      },
      { name: 'header', action: { type: 'SetResponseHeader', parameter1: 'X', parameter2: '1' } },
    ],
  };
  t.deepEqual(referencesOf(kind, spec), [
    sz('spec.edgeRules[assets].action.parameter1', '45'),
    app('spec.edgeRules[assets].extraActions[0].parameter1', 'app-2'),
    sz('spec.settings.loggingStorageZoneId', '44'),
    app('spec.settings.magicContainersAppId', 'app-1'),
    sz('spec.settings.permaCacheStorageZoneId', '43'),
    sz('spec.settings.storageZoneId', '42'),
  ]);
  t.deepEqual(
    referencesOf(kind, { settings: { permaCacheStorageZoneId: 0, loggingStorageZoneId: 0 } }),
    [],
    '0 turns the permanent cache and log storage off: no resource named',
  );
  t.deepEqual(
    referencesOf(kind, { adoption: { policy: 'ById', id: 7 } }),
    [],
    'its own id is a claim, not a reference',
  );
});

test('ContainerApp: a pull zone id given directly on an endpoint', (t) => {
  const kind = createContainerAppKind(deps);
  const spec = {
    containerTemplates: [
      {
        name: 'web',
        endpoints: [
          { displayName: 'cdn', cdn: { pullZoneId: 7 } },
          { displayName: 'by-ref', cdn: { pullZoneRef: { name: 'same-namespace' } } },
        ],
      },
    ],
  };
  t.deepEqual(referencesOf(kind, spec), [
    pz('spec.containerTemplates[web].endpoints[cdn].cdn.pullZoneId', '7'),
  ]);
});

test('ShieldPolicy: the target pull zone given by id (it changes that zone’s shield)', (t) => {
  const kind = createShieldPolicyKind(deps) as unknown as ManagedKind;
  t.deepEqual(referencesOf(kind, { pullZoneId: 7 }), [pz('spec.pullZoneId', '7')]);
  t.deepEqual(referencesOf(kind, { pullZoneRef: { name: 'web' } }), []);
});

test('StorageZone: names no other resource by id', (t) => {
  const kind = createStorageZoneKind(deps) as unknown as ManagedKind;
  t.deepEqual(referencesOf(kind, { adoption: { policy: 'ById', id: 42 }, region: 'DE' }), []);
});
