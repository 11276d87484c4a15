/**
 * Redaction of Secret-sourced values (issue 13 item 9): a value a kind reads through its
 * ConnectContext is registered and scrubbed from classified messages; prototype keys read
 * nothing. That an echoed value reaches no log, event or status, for every Secret-sourced field
 * of every kind and every spelling of the echo, is secret-echo.test.ts.
 */
import test from 'ava';
import { secretValues } from '../../../../src/cdn/redact.js';
import {
  registeringContext,
  withSecretRedaction,
} from '../../../../src/controllers/shared/secret-registration.js';
import type { ConnectContext, ManagedKind } from '../../../../src/runtime/types.js';
import { pino } from 'pino';

const log = pino({ level: 'silent' });

function ctxWith(data: Record<string, string> | undefined): ConnectContext {
  const secret = data ? Object.assign(Object.create(null) as Record<string, string>, data) : data;
  return {
    readSecret: () => Promise.resolve(secret),
    readConfigMap: () => Promise.resolve(undefined),
    getObject: () => undefined,
    log,
  };
}

test.serial('prototype keys read nothing and register nothing', async (t) => {
  const before = secretValues.size;
  const data = await registeringContext(ctxWith({ apiKey: 'proto-test-value-123' })).readSecret(
    'ns',
    'p',
  );
  for (const key of ['constructor', '__proto__', 'toString']) {
    t.is((data ?? {})[key], undefined, key);
  }
  t.is(secretValues.size, before);
});

test.serial('a deleted Secret is forgotten; re-reading a key replaces its old value', async (t) => {
  const first = await registeringContext(ctxWith({ k: 'first-value-abcdef' })).readSecret(
    'ns',
    'rot',
  );
  t.is(first?.k, 'first-value-abcdef');
  const second = await registeringContext(ctxWith({ k: 'second-value-abcdef' })).readSecret(
    'ns',
    'rot',
  );
  t.is(second?.k, 'second-value-abcdef');
  t.is(
    secretValues.scrub('first-value-abcdef second-value-abcdef'),
    'first-value-abcdef [REDACTED]',
  );
  await registeringContext(ctxWith(undefined)).readSecret('ns', 'rot');
  t.is(secretValues.scrub('second-value-abcdef'), 'second-value-abcdef');
});

test.serial('withSecretRedaction scrubs every classified message of a kind', async (t) => {
  await registeringContext(ctxWith({ token: 'classified-secret-value-42' }))
    .readSecret('ns', 'c')
    .then((d) => d?.token);
  const kind = {
    classifyError: (err: unknown) => ({
      class: 'terminal',
      reason: 'InvalidSpec',
      message: String((err as Error).message),
    }),
  } as unknown as ManagedKind;
  const wrapped = withSecretRedaction(kind);
  const c = wrapped.classifyError(new Error('bad value classified-secret-value-42 sent'));
  t.is(c.message, 'bad value [REDACTED] sent');
});
