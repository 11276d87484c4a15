/**
 * ContainerApp and ContainerRegistry: `registryRef` resolves to the registry's status id, is
 * watched, waits while the registry has no id; a numeric `imageRegistryId` is an id reference
 * (checked by the runtime like a ref), a public registry's name is not, anything else is refused.
 */
import test from 'ava';
import { pino } from 'pino';
import { TerminalError, WaitingError } from '../../../../src/runtime/errors.js';
import type { ConnectContext, ObjectReference } from '../../../../src/runtime/types.js';
import { toDesiredApp } from '../../../../src/controllers/containerapp/mapping.js';
import {
  idReferencesOf,
  referencesOf,
  resolveRefs,
} from '../../../../src/controllers/containerapp/references.js';
import type { ContainerApp } from '../../../../src/controllers/containerapp/types.js';
import { baseSpec } from './fixtures.js';

function app(registry: { imageRegistryId?: string; registryRef?: { name: string } }): ContainerApp {
  const spec = baseSpec();
  const web = spec.containerTemplates[0]!;
  delete web.imageRegistryId;
  Object.assign(web, registry);
  return {
    apiVersion: 'containers.cdn.operator.io/v1beta1',
    kind: 'ContainerApp',
    metadata: { name: 'demo', namespace: 'ns1', uid: 'u1' },
    spec: spec as ContainerApp['spec'],
  };
}

function ctxOf(objects: Record<string, Record<string, unknown>>): ConnectContext {
  return {
    readSecret: () => Promise.resolve(undefined),
    readConfigMap: () => Promise.resolve(undefined),
    getObject: (ref: ObjectReference) =>
      ref.kind === 'ContainerRegistry' && ref.name in objects
        ? {
            ...ref,
            metadata: { name: ref.name, namespace: ref.namespace },
            status: objects[ref.name],
          }
        : undefined,
    log: pino({ level: 'silent' }),
  };
}

test('a numeric imageRegistryId is an id reference of claim type ContainerRegistry', (t) => {
  t.deepEqual(idReferencesOf(app({ imageRegistryId: '4711' })), [
    {
      field: 'spec.containerTemplates[web].imageRegistryId',
      type: 'ContainerRegistry',
      id: '4711',
    },
  ]);
});

test('a public registry named by the platform is no id reference (no object can own it)', (t) => {
  t.deepEqual(idReferencesOf(app({ imageRegistryId: 'dockerhub' })), []);
});

// Neither a registry id nor a name: refused before any request (issue 44, item 4), where it was
// once sent as "not a reference".
const NOT_IDS = [
  { id: '0', why: 'not a platform id' },
  { id: '12a', why: 'not a number, nor a name' },
];
for (const c of NOT_IDS) {
  test(`imageRegistryId ${c.id} is refused InvalidSpec (${c.why})`, (t) => {
    const err = t.throws(() => idReferencesOf(app({ imageRegistryId: c.id })), {
      instanceOf: TerminalError,
    });
    t.is(err?.reason, 'InvalidSpec');
  });
}

test('registryRef is watched and resolves to the registry status id', async (t) => {
  const obj = app({ registryRef: { name: 'ghcr' } });
  t.true(
    referencesOf(obj, { defaultAccount: undefined }).some(
      (r) => r.kind === 'ContainerRegistry' && r.name === 'ghcr' && r.namespace === 'ns1',
    ),
  );
  const refs = await resolveRefs(obj, ctxOf({ ghcr: { registryId: 812 } }));
  t.deepEqual([...(refs.registries ?? new Map()).entries()], [['ghcr', 812]]);
  const desired = toDesiredApp(obj.spec, refs);
  t.is(desired.containerTemplates[0]?.imageRegistryId, '812');
  t.deepEqual(idReferencesOf(obj), [], 'a ref is checked as an object reference, not by id');
});

const WAITING: {
  objects: Record<string, Record<string, unknown>>;
  message: RegExp;
  why: string;
}[] = [
  {
    objects: {},
    message: /ContainerRegistry ns1\/ghcr: not found/,
    why: 'the registry does not exist',
  },
  {
    objects: { ghcr: {} },
    message: /to get a registry id/,
    why: 'the registry is not created yet',
  },
];
for (const c of WAITING) {
  test(`registryRef waits with ReferenceNotReady (${c.why})`, async (t) => {
    const err = await t.throwsAsync(
      resolveRefs(app({ registryRef: { name: 'ghcr' } }), ctxOf(c.objects)),
    );
    t.true(err instanceof WaitingError);
    t.is((err as WaitingError).reason, 'ReferenceNotReady');
    t.regex(err?.message ?? '', c.message);
  });
}
