/**
 * A reference written once (kit/ref-or-id.ts), and the CRUD client's connect-time `claims`
 * (kit/crud-external.ts):
 *
 * - exactly one of the `*Ref` and the raw id; the raw id in its one spelling (issue 44);
 * - a referenced object that is missing or has no id yet waits (ReferenceNotReady), one of
 *   another account is refused;
 * - `manifestObjects` answers a manifest's adopted id as the status id `cdnctl diff` reads;
 * - `claims` is what the resource says.
 */
import test from 'ava';
import { text } from '../../../../src/controllers/kit/codecs.js';
import { CrudExternal } from '../../../../src/controllers/kit/crud-external.js';
import { field } from '../../../../src/controllers/kit/fields.js';
import {
  idReferenceOf,
  manifestObjects,
  resolveRefOrId,
  type RefOrId,
} from '../../../../src/controllers/kit/ref-or-id.js';
import { TerminalError } from '../../../../src/runtime/errors.js';
import type { ManagedObject, ObjectReference } from '../../../../src/runtime/types.js';

const ZONE: RefOrId = {
  ref: 'zoneRef',
  id: 'zoneId',
  kind: { kind: 'Zone', family: 'zones' },
  statusId: 'zoneId',
  claimType: 'Zone',
};

function objectOf(spec: Record<string, unknown>, deleting = false): ManagedObject {
  const metadata = { name: 'a', namespace: 'ns', ...(deleting ? { deletionTimestamp: 'x' } : {}) };
  return { apiVersion: 'x/v1', kind: 'Thing', metadata, spec };
}

const ZONES: Record<string, ManagedObject> = {
  ready: { ...objectOf({}), status: { zoneId: 7, ownership: { account: 'mine' } } },
  waiting: { ...objectOf({}), status: {} },
  foreign: { ...objectOf({}), status: { zoneId: 8, ownership: { account: 'theirs' } } },
};
const getObject = (ref: ObjectReference): ManagedObject | undefined => ZONES[ref.name];

const cases: { why: string; spec: Record<string, unknown>; want: number | RegExp }[] = [
  { why: 'a ref reads the status id', spec: { zoneRef: { name: 'ready' } }, want: 7 },
  { why: 'a raw id as a number', spec: { zoneId: 9 }, want: 9 },
  { why: 'a raw id as its string spelling', spec: { zoneId: '9' }, want: 9 },
  { why: 'another spelling is no id', spec: { zoneId: '09' }, want: /expected a positive/ },
  { why: 'neither', spec: {}, want: /set exactly one of spec\.zoneRef and spec\.zoneId/ },
  {
    why: 'both',
    spec: { zoneRef: { name: 'ready' }, zoneId: 7 },
    want: /set exactly one of spec\.zoneRef and spec\.zoneId/,
  },
  { why: 'missing', spec: { zoneRef: { name: 'gone' } }, want: /Zone ns\/gone was not found/ },
  { why: 'no id yet', spec: { zoneRef: { name: 'waiting' } }, want: /has no status\.zoneId yet/ },
  { why: 'another account', spec: { zoneRef: { name: 'foreign' } }, want: /another account/ },
];
for (const c of cases) {
  test(`resolveRefOrId: ${c.why}`, (t) => {
    const resolve = (): number => resolveRefOrId(objectOf(c.spec), ZONE, getObject, 'mine');
    if (typeof c.want === 'number') t.is(resolve(), c.want);
    else t.throws(resolve, { message: c.want });
  });
}

test('resolveRefOrId: waiting is not terminal; refusals are', (t) => {
  const waiting = t.throws(() =>
    resolveRefOrId(objectOf({ zoneRef: { name: 'waiting' } }), ZONE, getObject, 'mine'),
  );
  t.false(waiting instanceof TerminalError, 'the reference watch re-enqueues it');
  const foreign = t.throws(() =>
    resolveRefOrId(objectOf({ zoneRef: { name: 'foreign' } }), ZONE, getObject, 'mine'),
  );
  t.true(foreign instanceof TerminalError);
});

test('idReferenceOf: the raw id as the runtime checks it, none for a ref', (t) => {
  t.deepEqual(idReferenceOf(objectOf({ zoneId: 9 }), ZONE), {
    field: 'spec.zoneId',
    type: 'Zone',
    id: '9',
  });
  t.is(idReferenceOf(objectOf({ zoneRef: { name: 'ready' } }), ZONE), undefined);
});

test('manifestObjects: a manifest adopting an id stands in for the status id', (t) => {
  const manifests: Record<string, ManagedObject[]> = {
    Zone: [
      {
        ...objectOf({ adoption: { policy: 'ById', id: 5 } }),
        metadata: { name: 'z', namespace: 'ns' },
      },
    ],
  };
  const get = manifestObjects({ objectsOf: (kind) => manifests[kind] ?? [] }, [ZONE]);
  const ref = { apiVersion: 'x/v1', kind: 'Zone', namespace: 'ns', name: 'z' };
  t.deepEqual(get(ref)?.status, { zoneId: 5 });
  t.is(get({ ...ref, name: 'other' }), undefined);
});

test('the CRUD client answers the claims its resource knows once connected', (t) => {
  const claims = [{ type: 'Content', id: 'k', recorded: false }];
  const ext = new CrudExternal<ManagedObject, { id: number }>({
    idField: 'thingId',
    fields: [field('name', text(), { api: 'name', description: 'Name.' })],
    account: 'unit',
    claims,
    identity: {
      what: 'thing',
      claimType: 'Thing',
      names: 'unique',
      nameOf: () => 'n',
      read: () => Promise.resolve(undefined),
      search: () => Promise.resolve([]),
      idOf: (r) => String(r.id),
      recordNameOf: () => 'n',
    },
    api: {
      create: () => Promise.reject(new Error('no')),
      update: () => Promise.reject(new Error('no')),
      remove: () => Promise.resolve(),
    },
  });
  t.is(ext.claims, claims);
});
