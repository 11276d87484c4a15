/**
 * The CRUD client's hooks and api members that ShieldAccessList brought to the kit
 * (kit/crud-external.ts), on an in-memory platform, each beside the default it leaves unchanged:
 *
 * - `precheck` refuses an object before anything is read;
 * - `available` tells the create's answer already matches the spec (default: confirm by a pass);
 * - `api.update` is given the record observe saw (a kind whose members take two calls);
 * - `api.remove` answering a sentence: nothing was sent, a warning says why (not "Deleted").
 */
import test from 'ava';
import { pino } from 'pino';
import type { ExternalContext } from '../../../../src/runtime/types.js';
import { memoryThings as platformOf, thingNamed as objectOf } from './memory-things.js';

/** A context whose log lines are collected in `lines`. */
function ctxOf(externalId?: string, lines: string[] = []): ExternalContext {
  const stream = { write: (s: string): void => void lines.push(s) };
  return {
    ...(externalId ? { externalId } : {}),
    createPending: false,
    log: pino({ level: 'debug' }, stream),
    signal: new AbortController().signal,
  };
}

test('precheck refuses the object before anything is read', async (t) => {
  const { ext, reads } = platformOf({
    precheck: () => Promise.reject(new Error('cannot use spec.name: refused')),
  });
  await t.throwsAsync(ext.observe(objectOf('one'), ctxOf('1')), { message: /refused/ });
  t.deepEqual(reads, []);
});

const AVAILABLE = [
  { hook: undefined, available: false, why: 'default: the same pass observes it' },
  { hook: () => true, available: true, why: 'the answer already matches the spec' },
  { hook: () => false, available: false, why: 'the hook says it does not' },
];
for (const c of AVAILABLE) {
  test(`a create is available: ${String(c.available)} (${c.why})`, async (t) => {
    const { ext } = platformOf(c.hook ? { available: c.hook } : {});
    t.is((await ext.create(objectOf('one'), ctxOf())).available, c.available);
  });
}

test('update is given the record observe saw', async (t) => {
  const { ext, given } = platformOf({});
  const created = await ext.create(objectOf('one'), ctxOf());
  const seen = await ext.observe(objectOf('two'), ctxOf(created.externalId));
  await ext.update(objectOf('two'), seen, ctxOf(created.externalId));
  t.deepEqual(given, [{ id: 1, name: 'one' }]);
});

test('a remove that answers a sentence sent nothing: a warning says why', async (t) => {
  const { ext } = platformOf({}, () => Promise.resolve('its parent is unknown'));
  const lines: string[] = [];
  await ext.delete(objectOf('one'), ctxOf('1', lines));
  t.is(lines.length, 1);
  t.like(JSON.parse(lines[0]!), { level: 40, msg: 'Cannot delete thing: its parent is unknown' });
});

test('a remove that answers nothing deleted the resource (info)', async (t) => {
  const { ext } = platformOf({});
  const created = await ext.create(objectOf('one'), ctxOf());
  const lines: string[] = [];
  await ext.delete(objectOf('one'), ctxOf(created.externalId, lines));
  t.like(JSON.parse(lines[0]!), { level: 30, msg: 'Deleted thing' });
});
