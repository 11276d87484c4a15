/**
 * An in-memory platform of one kind of record ("things") for the CRUD client's unit tests
 * (kit/crud-external.ts): names unique, the name the only field; it records what was read and
 * the record each update was given.
 */
import { text } from '../../../../src/controllers/kit/codecs.js';
import {
  CrudExternal,
  type CrudApi,
  type CrudHooks,
} from '../../../../src/controllers/kit/crud-external.js';
import { field } from '../../../../src/controllers/kit/fields.js';
import type { ManagedObject } from '../../../../src/runtime/types.js';

/** A thing on the platform. */
export interface Rec {
  id: number;
  name: string;
}

/** The table: the name, shown in status. */
export const FIELDS = [
  field('name', text(), { api: 'name', status: 'name', description: 'The name.' }),
] as const;

/** The client over a fresh platform, the ids read and the records updates were given. */
export function memoryThings(
  hooks: CrudHooks<ManagedObject, Rec>,
  remove?: CrudApi<Rec>['remove'],
): { ext: CrudExternal<ManagedObject, Rec>; reads: string[]; given: Rec[] } {
  const records = new Map<string, Rec>();
  const [reads, given]: [string[], Rec[]] = [[], []];
  const ext = new CrudExternal<ManagedObject, Rec>({
    idField: 'thingId',
    fields: FIELDS,
    account: 'unit',
    identity: {
      what: 'thing',
      claimType: 'Thing',
      names: 'unique',
      nameOf: (o) => String(o.spec?.name),
      read: (id) => (reads.push(id), Promise.resolve(records.get(id))),
      search: () => Promise.resolve([...records.values()]),
      idOf: (r) => String(r.id),
      recordNameOf: (r) => r.name,
    },
    api: {
      create: (body) => {
        const r = { id: records.size + 1, name: String(body.name) };
        records.set(String(r.id), r);
        return Promise.resolve(r);
      },
      update: (id, body, _signal, record) => {
        given.push(record);
        const r = { ...records.get(id)!, name: String(body.name) };
        records.set(id, r);
        return Promise.resolve(r);
      },
      remove: remove ?? ((id) => Promise.resolve(void records.delete(id))),
    },
    hooks,
  });
  return { ext, reads, given };
}

/** An object asking for a thing named `name`. */
export const thingNamed = (name: string): ManagedObject => ({
  apiVersion: 'v1',
  kind: 'Thing',
  metadata: { name: 'a', namespace: 'ns', uid: 'uid-a' },
  spec: { name },
});
