/**
 * The ContainerRegistry's external client (the kit's CrudExternal with the kind's hooks)
 * against an in-process cdn-sim (strict): the calls it makes, a rotation sending the
 * credentials once, a rename sending none, adoption by name (exact, one match), the platform's
 * public registries refused, crash recovery of an unrecorded create, and the password in no
 * status or observation.
 */
import test from 'ava';
import { createHash } from 'node:crypto';
import { pino } from 'pino';
import { CdnClient } from '../../../../src/cdn/client.js';
import type { ContainerRegistry as RegistryRecord } from '../../../../src/cdn/security-types.js';
import { containerRegistryResource } from '../../../../src/controllers/containerregistry/index.js';
import { passwordFingerprint } from '../../../../src/controllers/containerregistry/credentials.js';
import type {
  ContainerRegistry,
  ContainerRegistrySpec,
} from '../../../../src/controllers/containerregistry/types.js';
import { CrudExternal } from '../../../../src/controllers/kit/crud-external.js';
import type { ExternalContext } from '../../../../src/runtime/types.js';
import { startSimulator, type SimulatorHandle } from '../../../../src/simulator/server.js';

const API_KEY = 'unit-registry-key';
let sim: SimulatorHandle;
let client: CdnClient;
const passwords = new Map<string, string>();
/** Bodies of every replace the client sent (the call log keeps no bodies). */
const replaced: Record<string, unknown>[] = [];

function spying(target: CdnClient): CdnClient {
  return new Proxy(target, {
    get(t, prop): unknown {
      if (prop === 'replaceRegistry') {
        return (...args: Parameters<CdnClient['replaceRegistry']>) => {
          replaced.push(structuredClone(args[1]));
          return t.replaceRegistry(...args);
        };
      }
      const value: unknown = Reflect.get(t, prop, t);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(t) : value;
    },
  });
}

test.before(async () => {
  sim = await startSimulator({ apiKeys: [{ key: API_KEY }] });
  client = new CdnClient({ baseUrl: sim.url, credentials: API_KEY, retry: { maxAttempts: 1 } });
});

test.after.always(async () => {
  await sim?.close();
});

/** The client as the operator builds it; each object's Secret holds `passwords.get(name)`. */
function external(): CrudExternal<ContainerRegistry, RegistryRecord> {
  const conn = { client: spying(client), account: 'unit' };
  const readSecret = (_ns: string, secret: string): Promise<Record<string, string>> =>
    Promise.resolve({ password: passwords.get(secret.replace(/-pass$/, '')) ?? 'unset' });
  return new CrudExternal(containerRegistryResource(conn, objectOf('any'), { readSecret }));
}

function objectOf(name: string, spec: Partial<ContainerRegistrySpec> = {}): ContainerRegistry {
  return {
    apiVersion: 'containers.cdn.operator.io/v1beta1',
    kind: 'ContainerRegistry',
    metadata: { name, namespace: 'team-a', uid: `uid-${name}` },
    spec: {
      type: 'GitHub',
      username: 'bot',
      passwordSecretRef: { name: `${name}-pass`, key: 'password' },
      ...spec,
    },
  };
}

function ctxOf(externalId?: string, createPending = false): ExternalContext {
  return {
    ...(externalId ? { externalId } : {}),
    createPending,
    log: pino({ level: 'silent' }),
    signal: new AbortController().signal,
  };
}

function writesSince(from: number): string[] {
  return sim.calls
    .snapshot()
    .log.slice(from)
    .filter((c) => c.method !== 'GET')
    .map((c) => c.route);
}

function digestOf(id: string): unknown {
  return sim.state.collections.of('registries').get(id)?.passwordDigest;
}

const sha256 = (v: string): string => createHash('sha256').update(v).digest('hex');

test.serial('create, in sync, rotation once, rename without credentials', async (t) => {
  const ext = external();
  const obj = objectOf('ghcr', { name: 'unit-ghcr' });
  passwords.set('ghcr', 'first-password-0001');
  const from = sim.calls.snapshot().log.length;
  const created = await ext.create(obj, ctxOf());
  t.deepEqual(writesSince(from), ['POST /mc/registries']);
  t.is(digestOf(created.externalId), sha256('first-password-0001'));
  const first = passwordFingerprint('uid-ghcr', 'first-password-0001');
  t.deepEqual(
    created.status,
    { registryId: Number(created.externalId), passwordFingerprint: first },
    'the create records the fingerprint of the password it sent',
  );
  obj.status = { ...(created.status ?? {}) };

  const same = await ext.observe(obj, ctxOf(created.externalId));
  t.true(same.upToDate);
  t.like(same.status, { name: 'unit-ghcr', username: 'bot', passwordFingerprint: first });
  t.is(typeof same.status?.hostname, 'string', 'the host the platform pulls from');
  t.false(JSON.stringify(same).includes('first-password'));

  passwords.set('ghcr', 'second-password-0002');
  const rotated = await ext.observe(obj, ctxOf(created.externalId));
  t.deepEqual(
    rotated.diff.map((d) => d.field),
    ['password'],
  );
  const before = sim.calls.snapshot().log.length;
  const res = await ext.update(obj, rotated, ctxOf(created.externalId));
  t.deepEqual(writesSince(before), ['PUT /mc/registries/{registryId}']);
  t.is(digestOf(created.externalId), sha256('second-password-0002'));
  const second = passwordFingerprint('uid-ghcr', 'second-password-0002');
  t.is(res?.status?.passwordFingerprint, second, 'the rotation records the new fingerprint');
  obj.status = { ...obj.status, ...(res?.status ?? {}) };
  t.true((await ext.observe(obj, ctxOf(created.externalId))).upToDate, 'sent once');

  const renamed = objectOf('ghcr', { name: 'unit-ghcr-2' });
  renamed.status = obj.status;
  const seen = await ext.observe(renamed, ctxOf(created.externalId));
  t.deepEqual(
    seen.diff.map((d) => d.field),
    ['displayName'],
  );
  const renaming = await ext.update(renamed, seen, ctxOf(created.externalId));
  t.like(renaming?.status, { name: 'unit-ghcr-2' });
  t.false('passwordFingerprint' in (renaming?.status ?? {}), 'nothing sent, nothing recorded');
  t.deepEqual(replaced.at(-1), { displayName: 'unit-ghcr-2', type: 'gitHub' }, 'no credentials');
  t.like(replaced.at(-2), { passwordCredentials: { userName: 'bot' } }, 'the rotation sent them');
  t.is(digestOf(created.externalId), sha256('second-password-0002'));
});

test.serial('adoption by name: exact name, one match; public registries refused', async (t) => {
  const ext = external();
  passwords.set('a', 'adopted-password-01');
  const made = await ext.create(objectOf('made', { name: 'Legacy-Reg' }), ctxOf());
  const byName = objectOf('a', { name: 'Legacy-Reg', adoption: { policy: 'ByName' } });
  const found = await ext.observe(byName, ctxOf());
  t.is(found.externalId, made.externalId);
  t.true(found.upToDate, 'adoption takes the Secret as the live password: nothing to send');
  t.is(found.status?.passwordFingerprint, passwordFingerprint('uid-a', 'adopted-password-01'));
  const lower = objectOf('a', { name: 'legacy-reg', adoption: { policy: 'ByName' } });
  await t.throwsAsync(ext.observe(lower, ctxOf()), {
    message: /no container registry matches it/,
  });

  await ext.create(objectOf('twin', { name: 'Legacy-Reg' }), ctxOf());
  await t.throwsAsync(ext.observe(byName, ctxOf()), {
    message: /2 container registry resources match.*ids \d+, \d+/,
  });

  const publicId = [...sim.state.collections.of('registries').values()].find(
    (r) => r.isPlatformManaged === true,
  )?.id;
  const adoptPublic = objectOf('pub', { adoption: { policy: 'ById', id: Number(publicId) } });
  await t.throwsAsync(ext.observe(adoptPublic, ctxOf(String(publicId))), {
    message: /public registries/,
  });
});

test.serial(
  'crash recovery finds our own create by its provisional name, which the update replaces',
  async (t) => {
    const ext = external();
    const token = { createToken: '0123456789abcdef' };
    const pending = objectOf('rec', { name: 'unit-recover' });
    const made = await ext.create(pending, { ...ctxOf(), ...token });
    // A registry of another owner with the wanted name is never a candidate.
    await ext.create(objectOf('foreign', { name: 'unit-recover' }), ctxOf());
    const found = await ext.observe(pending, { ...ctxOf(undefined, true), ...token });
    t.is(found.externalId, made.externalId);
    t.deepEqual(
      found.diff.map((d) => [d.field, d.live]),
      [['displayName', 'cdnop-0123456789abcdef']],
    );
    await ext.update(pending, found, ctxOf(made.externalId));
    t.true((await ext.observe(pending, ctxOf(made.externalId))).upToDate, 'renamed');
  },
);
