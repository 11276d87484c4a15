/**
 * Log redaction (src/log.ts): a log line says which object it is about (the runtime's `key`
 * field, `namespace/name`, is never censored), credential fields are censored by name, and
 * every value read from a Secret is scrubbed by value wherever it appears in a line.
 */
import test from 'ava';
import type { DestinationStream } from 'pino';
import { secretValues } from '../../../src/cdn/redact.js';
import { createLogger } from '../../../src/log.js';
import { FORMS, leakForms } from '../../support/secret-forms.js';
import { FakeEnv, thing } from '../runtime/fake-env.js';

/** A logger at debug whose lines are collected (parsed). */
function collectingLogger(): { log: ReturnType<typeof createLogger>; lines: string[] } {
  const lines: string[] = [];
  const destination: DestinationStream = { write: (s: string) => void lines.push(s) };
  return { log: createLogger({ level: 'debug', destination }), lines };
}

const parsed = (lines: string[]): Record<string, unknown>[] =>
  lines.map((l) => JSON.parse(l) as Record<string, unknown>);

test('a reconcile pass logs which object it is about: key is namespace/name', async (t) => {
  const { log, lines } = collectingLogger();
  const env = new FakeEnv();
  env.put(thing('shop-cdn'));
  const r = await env.reconciler({ log }).reconcile('ns/shop-cdn');
  t.is(r.outcome, 'success');
  // The create pass, then a pass that finds it in place and logs "Reconciled".
  await env.reconciler({ log }).reconcile('ns/shop-cdn');
  const reconciled = parsed(lines).filter((l) => l.msg === 'Reconciled');
  t.true(reconciled.length > 0, lines.join(''));
  for (const line of reconciled) t.is(line.key, 'ns/shop-cdn');
  t.false(lines.join('').includes('[REDACTED]'), 'nothing in a plain pass is censored');
});

const CREDENTIAL = 'field-path-credential-0123456789';

const byFieldPath: Array<[string, Record<string, unknown>]> = [
  ['the platform header value', { AccessKey: CREDENTIAL }],
  ['an API key', { apiKey: CREDENTIAL }],
  ['the Key of an API key record', { Key: CREDENTIAL }],
  ['request headers', { headers: { AccessKey: CREDENTIAL, authorization: CREDENTIAL } }],
  ['the simulator admin token header', { headers: { 'x-sim-admin-token': CREDENTIAL } }],
  ['a password', { password: CREDENTIAL }],
  ['a storage zone record', { zone: { Password: CREDENTIAL, ReadOnlyPassword: CREDENTIAL } }],
  ['a token', { token: CREDENTIAL }],
  ['a secret', { secret: CREDENTIAL }],
  ['a nested API key', { account: { apiKey: CREDENTIAL } }],
  ['a listed API key', { item: { Key: CREDENTIAL } }],
  ['a certificate key', { hostname: { certificateKey: CREDENTIAL } }],
  ['a Secret object', { object: { data: { apiKey: CREDENTIAL }, stringData: { x: CREDENTIAL } } }],
];

for (const [what, fields] of byFieldPath) {
  test(`censored by field path, never registered: ${what}`, (t) => {
    const { log, lines } = collectingLogger();
    log.info(fields, 'Logged a credential field');
    t.is(lines.length, 1);
    t.false(lines[0]!.includes(CREDENTIAL), lines[0]);
    t.true(lines[0]!.includes('[REDACTED]'));
  });
}

test('a generic field name (key, name, namespace) is never censored', (t) => {
  const { log, lines } = collectingLogger();
  log.info({ key: 'team-a/shop', name: 'shop', namespace: 'team-a' }, 'Reconciled');
  t.like(parsed(lines)[0], { key: 'team-a/shop', name: 'shop', namespace: 'team-a' });
});

test.serial('a value read from a Secret is scrubbed from every part of a line', (t) => {
  const value = 'unit-log-secret-"quoted"\nline2\\end';
  const escaped = JSON.stringify(value).slice(1, -1);
  secretValues.set('unit-log/ns/creds/apiKey', value);
  t.teardown(() => secretValues.forget('unit-log/'));
  const { log, lines } = collectingLogger();
  log.info({ error: `cannot call the API: rejected ${value}` }, `Failed with ${value}`);
  log.warn({ key: value, nested: { deep: [value] } }, 'Any field');
  // An error text that already carries the value JSON-escaped (an echoed request body).
  log.warn({ error: `400: {"apiKey":"${escaped}"}` }, 'Echoed body');
  log.error({ err: new Error(`boom ${value}`) }, 'Error object');
  log.info({ cert: Buffer.from(value).toString('base64') }, 'Base64');
  t.is(lines.length, 5);
  for (const line of lines) {
    t.true(line.includes('[REDACTED]'), line);
    t.false(line.includes(escaped), line);
    t.false(line.includes(JSON.stringify(escaped).slice(1, -1)), line);
    t.false(line.includes(Buffer.from(value).toString('base64')), line);
    t.false(line.includes('unit-log-secret'), line);
    t.notThrows(() => void JSON.parse(line), 'still one JSON document');
  }
});

// A rotated password echoed by the platform in an error, spelled as it may be (issue 44).
const ROTATED = `rotated-pa ss/+="q"'a'<&>~!*é\\z`;

for (const [what, encode] of FORMS) {
  test.serial(`an error quoting a Secret value leaves no trace in the line: ${what}`, (t) => {
    secretValues.set('unit-log/ns/registry/password', ROTATED);
    t.teardown(() => secretValues.forget('unit-log/'));
    const { log, lines } = collectingLogger();
    log.warn({ error: `cannot update: 400: ${encode(ROTATED)}` }, 'Reconcile failed');
    t.is(lines.length, 1);
    t.deepEqual(
      leakForms(ROTATED).filter((f) => lines[0]!.includes(f)),
      [],
      lines[0],
    );
    t.true(lines[0]!.includes('[REDACTED]'));
    t.notThrows(() => void JSON.parse(lines[0]!), 'still one JSON document');
  });
}

test.serial('a forgotten value (its Secret deleted) is no longer scrubbed', (t) => {
  const value = 'unit-log-forgotten-0123456789';
  secretValues.set('unit-log/ns/gone/apiKey', value);
  secretValues.forget('unit-log/ns/gone/');
  const { log, lines } = collectingLogger();
  log.info({ note: value }, 'Plain text');
  t.true(lines[0]!.includes(value));
});
