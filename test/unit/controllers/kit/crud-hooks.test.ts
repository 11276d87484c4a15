/**
 * The CRUD client's hooks that carry what a comparison or a write learned into status, and the
 * spec paths of members the hooks send (kit/crud-external.ts, kit/fields.ts), on an in-memory
 * platform:
 *
 * - the `compare` hook's `status` is merged into the observed status;
 * - the `status` hook receives the body of the create or update just made (`sent`), and no
 *   body after a read;
 * - `specPathOf` names a table field's path, else one of `extra`, else the member itself.
 */
import test from 'ava';
import { pino } from 'pino';
import type { CrudHooks } from '../../../../src/controllers/kit/crud-external.js';
import { specPathOf } from '../../../../src/controllers/kit/fields.js';
import type { ExternalContext, ManagedObject } from '../../../../src/runtime/types.js';
import { FIELDS, memoryThings, thingNamed as objectOf, type Rec } from './memory-things.js';

/** A platform of one kind of record, and the bodies the status hook was given. */
function platformOf(hooks: CrudHooks<ManagedObject, Rec>): {
  ext: ReturnType<typeof memoryThings>['ext'];
  sent: (Record<string, unknown> | undefined)[];
} {
  const sent: (Record<string, unknown> | undefined)[] = [];
  const { ext } = memoryThings({
    ...hooks,
    status: (r, o, body) => {
      sent.push(body);
      return hooks.status?.(r, o, body) ?? {};
    },
  });
  return { ext, sent };
}

const ctxOf = (externalId?: string): ExternalContext => ({
  ...(externalId ? { externalId } : {}),
  createPending: false,
  log: pino({ level: 'silent' }),
  signal: new AbortController().signal,
});

test('the compare hook status is merged into the observed status, over the table', async (t) => {
  const { ext } = platformOf({
    compare: (_o, _r, diff) =>
      Promise.resolve({ ...diff, status: { secretFingerprint: 'sha256:x', name: 'shown' } }),
  });
  const created = await ext.create(objectOf('one'), ctxOf());
  const seen = await ext.observe(objectOf('one'), ctxOf(created.externalId));
  t.deepEqual(seen.status, { thingId: 1, name: 'shown', secretFingerprint: 'sha256:x' });
  t.deepEqual(seen.seen?.diff.status, { secretFingerprint: 'sha256:x', name: 'shown' });
});

test('without a compare hook status the observed status is the table and the id', async (t) => {
  const { ext } = platformOf({});
  const created = await ext.create(objectOf('one'), ctxOf());
  const seen = await ext.observe(objectOf('one'), ctxOf(created.externalId));
  t.deepEqual(seen.status, { thingId: 1, name: 'one' });
});

test('the status hook sees the body a write sent, and none after a read', async (t) => {
  const { ext, sent } = platformOf({
    createBody: (_o, body) => Promise.resolve({ ...body, secret: 'c' }),
    updateBody: (_o, _seen, body) => Promise.resolve({ ...body, secret: 'u' }),
    status: (_r, _o, body) => (body ? { wrote: body.secret } : {}),
  });
  const created = await ext.create(objectOf('one'), ctxOf());
  t.deepEqual(created.status, { thingId: 1, name: 'one', wrote: 'c' });
  const seen = await ext.observe(objectOf('two'), ctxOf(created.externalId));
  t.false('wrote' in (seen.status ?? {}), 'a read wrote nothing');
  const updated = await ext.update(objectOf('two'), seen, ctxOf(created.externalId));
  t.deepEqual(updated?.status, { thingId: 1, name: 'two', wrote: 'u' });
  t.deepEqual(sent, [{ name: 'one', secret: 'c' }, undefined, { name: 'two', secret: 'u' }]);
});

const PATHS = [
  { member: 'name', path: 'spec.name (name)', why: 'a field of the table' },
  { member: 'creds.password', path: 'spec.passwordSecretRef (creds.password)', why: 'in extra' },
  { member: 'other', path: 'other', why: 'neither: the member as the platform names it' },
];
for (const c of PATHS) {
  test(`specPathOf ${c.member}: ${c.path} (${c.why})`, (t) => {
    t.is(specPathOf(FIELDS, c.member, { 'creds.password': 'spec.passwordSecretRef' }), c.path);
  });
}

test('specPathOf without extra names only the table', (t) => {
  t.is(specPathOf(FIELDS, 'creds.password'), 'creds.password');
});
