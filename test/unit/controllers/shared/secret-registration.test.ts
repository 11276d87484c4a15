/**
 * Redaction of Secret-sourced values (issue 13 item 9): a value a kind reads through its
 * ConnectContext is scrubbed from CDN errors, including a 400 whose body echoes the request,
 * and from classified messages; prototype keys read nothing.
 */
import test from 'ava';
import { CdnClient } from '../../../../src/cdn/client.js';
import { secretValues } from '../../../../src/cdn/redact.js';
import { classifyCdnError } from '../../../../src/controllers/shared/classify-error.js';
import {
  registeringContext,
  withSecretRedaction,
} from '../../../../src/controllers/shared/secret-registration.js';
import type { ConnectContext, ManagedKind } from '../../../../src/runtime/types.js';
import { startSimulator } from '../../../../src/simulator/server.js';
import { pino } from 'pino';

const API_KEY = 'unit-redaction-api-key-0001';
const SIGNING_SECRET = 'aws-unit-signing-secret-/+="x\nline2';
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

test.serial('a value read through the context is scrubbed from an echoed 400 body', async (t) => {
  const sim = await startSimulator({ apiKeys: [{ key: API_KEY }] });
  t.teardown(() => sim.close());
  const client = new CdnClient({ baseUrl: sim.url, credentials: API_KEY });
  t.teardown(() => client.close());
  const zone = await client.addPullZone({
    Name: 'unit-redaction-zone',
    OriginUrl: 'https://o.example.com',
  });
  sim.faults.set({ echoBodyRoutes: ['POST /pullzone/{id}'] });

  const data = await registeringContext(ctxWith({ secret: SIGNING_SECRET })).readSecret(
    'ns',
    'signing',
  );
  const value = data?.secret as string;
  const err = await t.throwsAsync(
    client.updatePullZone(zone.Id as number, { AWSSigningSecret: value, AWSSigningEnabled: true }),
  );
  // The platform did echo the body (so this check can fail) ...
  t.regex(err.message, /could not be processed/);
  t.regex(err.message, /REDACTED/);
  // ... and no form of the value survived: raw, JSON-escaped.
  t.false(err.message.includes(SIGNING_SECRET));
  t.false(err.message.includes(JSON.stringify(SIGNING_SECRET).slice(1, -1)));
  const classified = classifyCdnError(err);
  t.false(classified.message.includes(JSON.stringify(SIGNING_SECRET).slice(1, -1)));
});

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
