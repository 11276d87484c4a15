/**
 * PullZoneExternal against an in-process cdn-sim: writes per create / update / in-sync pass
 * (counted through the simulator's call log), only differing fields sent, drift corrected,
 * adoption by name and id, platform errors classified, hostnames and certificates, deletion.
 */
import test from 'ava';
import { pino } from 'pino';
import { CdnClient } from '../../../../src/cdn/client.js';
import type { FetchLike } from '../../../../src/cdn/options.js';
import { PullZoneExternal } from '../../../../src/controllers/pullzoneconfig/external.js';
import { createPullZoneConfigKind } from '../../../../src/controllers/pullzoneconfig/index.js';
import {
  hashTls,
  type ResolvedSecrets,
} from '../../../../src/controllers/pullzoneconfig/references.js';
import type {
  PullZoneConfig,
  PullZoneConfigSpec,
} from '../../../../src/controllers/pullzoneconfig/types.js';
import type { ExternalContext, ManagedStatus } from '../../../../src/runtime/types.js';
import { startSimulator, type SimulatorHandle } from '../../../../src/simulator/server.js';
import { ctxOf, runPass as pass } from './sim-pass.js';

const API_KEY = 'pzc-unit-key';
let sim: SimulatorHandle;
let client: CdnClient;
const sent: { method: string; url: string; body: unknown }[] = [];

test.before(async () => {
  sim = await startSimulator({ apiKeys: [{ key: API_KEY }] });
  const capture: FetchLike = async (url, init) => {
    sent.push({
      method: init.method,
      url,
      body: init.body ? JSON.parse(init.body as string) : undefined,
    });
    const res = await fetch(url, {
      method: init.method,
      headers: init.headers,
      body: init.body,
      signal: init.signal,
    });
    return res;
  };
  client = new CdnClient({
    baseUrl: sim.url,
    credentials: API_KEY,
    retry: { maxAttempts: 1 },
    fetch: capture,
  });
});

test.after.always(async () => {
  await sim?.close();
});

const NO_SECRETS: ResolvedSecrets = { settings: new Map(), tls: new Map() };

function external(secrets: ResolvedSecrets = NO_SECRETS): PullZoneExternal {
  return new PullZoneExternal({ client, accountId: 'acct', secrets });
}

function objectOf(name: string, spec: PullZoneConfigSpec, status?: ManagedStatus): PullZoneConfig {
  return {
    apiVersion: 'pullzones.cdn.operator.io/v1beta1',
    kind: 'PullZoneConfig',
    metadata: { name, namespace: 'default', uid: `uid-${name}` },
    spec: spec as PullZoneConfig['spec'],
    ...(status ? { status } : {}),
  };
}

/** Writes to the platform since the mark (every non-GET, plus loadFreeCertificate). */
function writesSince(mark: number): { method: string; url: string; body: unknown }[] {
  return sent
    .slice(mark)
    .filter((r) => r.method !== 'GET' || r.url.includes('loadFreeCertificate'));
}

async function simCalls(): Promise<{ route: string; method: string }[]> {
  const res = await fetch(`${sim.url}/_sim/calls`, {
    headers: { 'X-Sim-Admin-Token': sim.adminToken },
  });
  const body = (await res.json()) as { log: { route: string; method: string }[] };
  return body.log;
}

test.serial(
  'create carries every setting in one POST /pullzone; then in sync with zero writes',
  async (t) => {
    const ext = external();
    const spec: PullZoneConfigSpec = {
      settings: {
        originUrl: 'https://origin.example.com',
        originShieldMaxConcurrentRequests: 300,
        ipFamilyPolicy: 'IPv6Only',
        type: 'Volume',
        blockedIps: ['10.0.0.1'],
        dnsOriginPort: 8443,
      },
    };
    const before = (await simCalls()).length;
    const mark = sent.length;
    const { obj } = await pass(ext, objectOf('pzc-create', spec));
    const writes = writesSince(mark);
    t.is(writes.length, 1, 'one write per create');
    t.is(writes[0]?.method, 'POST');
    t.true(writes[0]?.url.endsWith('/pullzone'));
    t.like(writes[0]?.body, {
      Name: 'pzc-create',
      OriginShieldMaxConcurrentRequests: 300,
      IpFamilyPolicy: 3,
      Type: 1,
    });
    const routes = (await simCalls()).slice(before).filter((c) => c.method !== 'GET');
    t.deepEqual(
      routes.map((c) => c.route),
      ['POST /pullzone'],
      'the simulator saw exactly one write',
    );
    t.true(typeof obj.status?.pullZoneId === 'number');
    t.regex(String(obj.status?.cdnHostname), /^pzc-create\.b-cdn\.net$/);

    const mark2 = sent.length;
    const second = await pass(ext, obj);
    t.true(second.obs.upToDate, JSON.stringify(second.obs.diff));
    t.is(writesSince(mark2).length, 0, 'zero writes in sync');
  },
);

test.serial(
  'create reports available only when its answer already is the desired state',
  async (t) => {
    const ext = external();
    const plain = objectOf('pzc-avail', { settings: { originUrl: 'https://o.example.com' } });
    const created = await ext.create(plain, ctxOf(undefined));
    t.true(created.available, 'settings only: the create answer proves it, no confirming pass');
    // Hostnames are added by the next pass, so such a create is not complete yet.
    const withHost = objectOf('pzc-avail-host', {
      settings: { originUrl: 'https://o.example.com' },
      hostnames: [{ hostname: 'avail.example.com' }],
    });
    t.false((await ext.create(withHost, ctxOf(undefined))).available);
    const withOutputs = objectOf('pzc-avail-out', { outputSecretRef: { name: 'pzc-avail-out' } });
    t.false((await ext.create(withOutputs, ctxOf(undefined))).available, 'outputs still to write');
  },
);

test.serial(
  'update sends exactly one POST /pullzone/{id} with only the differing field',
  async (t) => {
    const ext = external();
    let { obj } = await pass(
      ext,
      objectOf('pzc-update', {
        settings: { originShieldMaxConcurrentRequests: 100, enableLogging: true },
      }),
    );
    obj = {
      ...obj,
      spec: {
        ...obj.spec,
        settings: { originShieldMaxConcurrentRequests: 200, enableLogging: true },
      },
    };
    const mark = sent.length;
    const r = await pass(ext, obj);
    t.deepEqual(r.obs.diff, [
      { field: 'OriginShieldMaxConcurrentRequests', live: '100', desired: '200' },
    ]);
    const writes = writesSince(mark);
    t.is(writes.length, 1);
    t.regex(writes[0]!.url, /\/pullzone\/\d+$/);
    t.deepEqual(writes[0]!.body, { OriginShieldMaxConcurrentRequests: 200 });
  },
);

test.serial('drift made on the platform is detected and corrected', async (t) => {
  const ext = external();
  const { obj } = await pass(
    ext,
    objectOf('pzc-drift', { settings: { optimizerImageQuality: 80 } }),
  );
  const zone = sim.state.pullZones.get(Number(obj.status?.pullZoneId))!;
  zone.record.OptimizerImageQuality = 42;
  zone.record.OriginUrl = 'https://unmanaged.example.com';
  const r = await pass(ext, obj);
  t.deepEqual(
    r.obs.diff,
    [{ field: 'OptimizerImageQuality', live: '42', desired: '80' }],
    'unmanaged drift ignored',
  );
  t.is(zone.record.OptimizerImageQuality, 80);
  t.is(zone.record.OriginUrl, 'https://unmanaged.example.com');
});

test.serial(
  'a zone with the same name is never adopted implicitly: the create reports NameTaken and changes nothing',
  async (t) => {
    const outside = await client.addPullZone({
      Name: 'pzc-taken',
      OriginUrl: 'https://theirs.example.com',
    });
    const ext = external();
    const obj = objectOf('pzc-taken', { settings: { originUrl: 'https://mine.example.com' } });
    const obs = await ext.observe(obj, ctxOf());
    t.false(obs.exists, 'no lookup by name without an explicit adoption');
    const mark = sent.length;
    const err = await t.throwsAsync(ext.create(obj, ctxOf()));
    const kind = createPullZoneConfigKind({ apiBaseUrl: sim.url, log: pino({ level: 'silent' }) });
    t.like(kind.classifyError(err), { class: 'terminal', reason: 'NameTaken' });
    t.regex(err.message, /spec\.name/);
    t.deepEqual(
      writesSince(mark).map((w) => w.method),
      ['POST'],
      'only the refused POST /pullzone, nothing else written',
    );
    const zone = sim.state.pullZones.get(Number(outside.Id))!;
    t.is(zone.record.OriginUrl, 'https://theirs.example.com');
  },
);

test.serial(
  'adoption by name only with spec.adoption.policy ByName; a missing name is NotFound',
  async (t) => {
    const existing = await client.addPullZone({ Name: 'pzc-adopt-name' });
    await client.addPullZone({ Name: 'pzc-adopt-name-longer' });
    const ext = external();
    const byName = objectOf('x', {
      name: 'pzc-adopt-name',
      adoption: { policy: 'ByName' },
    } as never);
    const obs = await ext.observe(byName, ctxOf());
    t.true(obs.exists);
    t.is(obs.externalId, String(existing.Id));
    const missing = objectOf('x', {
      name: 'pzc-adopt-none',
      adoption: { policy: 'ByName' },
    } as never);
    const err = await t.throwsAsync(ext.observe(missing, ctxOf()));
    t.is((err as { reason?: string }).reason, 'NotFound');
  },
);

test.serial(
  'adoption by name uses the platform case rule: zone names are unique without case, so SHOP finds shop',
  async (t) => {
    const existing = await client.addPullZone({ Name: 'pzc-shop-case' });
    const ext = external();
    const upper = objectOf('x', {
      name: 'PZC-SHOP-CASE',
      adoption: { policy: 'ByName' },
    } as never);
    const obs = await ext.observe(upper, ctxOf());
    t.true(obs.exists, 'the platform would refuse PZC-SHOP-CASE as taken: it is this zone');
    t.is(obs.externalId, String(existing.Id));
    const recovering: ExternalContext = {
      ...ctxOf(),
      createPending: true,
      claimedByOther: () => false,
    };
    const recovered = await ext.observe(objectOf('PZC-SHOP-CASE', {}), recovering);
    t.is(recovered.externalId, String(existing.Id), 'crash recovery by name follows the same rule');
  },
);

test.serial('crash recovery by name skips a zone another object manages', async (t) => {
  const other = await client.addPullZone({ Name: 'pzc-recover' });
  const ext = external();
  const ctx: ExternalContext = {
    ...ctxOf(),
    createPending: true,
    claimedByOther: (type, id) => type === 'PullZoneConfig' && id === String(other.Id),
  };
  t.false((await ext.observe(objectOf('pzc-recover', {}), ctx)).exists);
  const free: ExternalContext = { ...ctx, claimedByOther: () => false };
  t.is((await ext.observe(objectOf('pzc-recover', {}), free)).externalId, String(other.Id));
});

test.serial(
  'an adopted id that does not exist is a terminal NotFound; deleting it is fine',
  async (t) => {
    const kind = createPullZoneConfigKind({ apiBaseUrl: sim.url, log: pino({ level: 'silent' }) });
    const ext = external();
    const obj = objectOf('pzc-missing', { adoption: { policy: 'ById', id: 987654 } });
    const err = await t.throwsAsync(ext.observe(obj, ctxOf('987654')));
    t.like(kind.classifyError(err), { class: 'terminal', reason: 'NotFound' });
    const deleting = {
      ...obj,
      metadata: { ...obj.metadata, deletionTimestamp: new Date().toISOString() },
    };
    t.false((await ext.observe(deleting, ctxOf('987654'))).exists);
  },
);

test.serial(
  'a platform 400 is InvalidSpec naming the spec field and the platform message',
  async (t) => {
    const kind = createPullZoneConfigKind({ apiBaseUrl: sim.url, log: pino({ level: 'silent' }) });
    const ext = external();
    const { obj } = await pass(ext, objectOf('pzc-invalid', { settings: { enableLogging: true } }));
    const bad = { ...obj, spec: { ...obj.spec, settings: { optimizerImageQuality: 500 } } };
    const err = await t.throwsAsync(pass(ext, bad));
    const c = kind.classifyError(err);
    t.is(c.class, 'terminal');
    t.is(c.reason, 'InvalidSpec');
    t.regex(c.message, /spec\.settings\.optimizerImageQuality/);
    t.regex(c.message, /<= 100|between 1 and 100/);
  },
);

test.serial(
  'one referrer removed uses removeAllowedReferrer instead of a full update',
  async (t) => {
    const ext = external();
    let { obj } = await pass(
      ext,
      objectOf('pzc-ref', { settings: { allowedReferrers: ['a.example.com', 'b.example.com'] } }),
    );
    obj = { ...obj, spec: { ...obj.spec, settings: { allowedReferrers: ['a.example.com'] } } };
    const mark = sent.length;
    await pass(ext, obj);
    const writes = writesSince(mark);
    t.is(writes.length, 1);
    t.regex(writes[0]!.url, /removeAllowedReferrer$/);
    t.deepEqual(writes[0]!.body, { Hostname: 'b.example.com' });
    const again = await pass(ext, obj);
    t.true(again.obs.upToDate);
  },
);

test.serial(
  'hostname with free certificate and force SSL; removal of a hostname it added',
  async (t) => {
    const ext = external();
    // The hostname's DNS (outside cdn-sim) points at the CDN: the free certificate is issued.
    sim.state.externalDns.add('cdn.free.example.com');
    const spec: PullZoneConfigSpec = {
      outputSecretRef: { name: 'pzc-out' },
      hostnames: [
        { hostname: 'cdn.free.example.com', forceSSL: true, certificate: { type: 'Free' } },
      ],
    };
    let { obj } = await pass(ext, objectOf('pzc-host', spec));
    const mark = sent.length;
    ({ obj } = await pass(ext, obj));
    const ops = writesSince(mark).map((w) => w.url.split('/').pop()?.split('?')[0]);
    t.deepEqual(ops, ['addHostname', 'loadFreeCertificate', 'setForceSSL']);
    t.like(obj.status?.hostnames?.[0], {
      hostname: 'cdn.free.example.com',
      addedByOperator: true,
      forceSSL: true,
    });
    const synced = await pass(ext, obj);
    t.true(synced.obs.upToDate, JSON.stringify(synced.obs.diff));
    t.like(synced.obj.status?.hostnames?.[0]?.certificate, { type: 'Free', state: 'Issued' });
    t.like(synced.obs.connectionDetails, {
      hostnames: 'cdn.free.example.com',
      cdnHostname: 'pzc-host.b-cdn.net',
    });

    obj = { ...synced.obj, spec: { ...obj.spec, hostnames: [] } };
    const mark2 = sent.length;
    const removed = await pass(ext, obj);
    t.deepEqual(removed.obs.diff, [
      { field: 'Hostnames[cdn.free.example.com]', live: 'present', desired: '<absent>' },
    ]);
    t.deepEqual(
      writesSince(mark2).map((w) => w.url.split('/').pop()),
      ['removeHostname'],
    );
  },
);

test.serial(
  'the system hostname carries forceSSL like any hostname: one setForceSSL, never added or removed',
  async (t) => {
    const ext = external();
    const spec: PullZoneConfigSpec = {
      hostnamePolicy: 'Exact',
      hostnames: [{ hostname: 'PZC-SYS-SSL.b-cdn.net', forceSSL: true }],
    };
    let { obj } = await pass(ext, objectOf('pzc-sys-ssl', spec));
    const mark = sent.length;
    ({ obj } = await pass(ext, obj));
    t.deepEqual(
      writesSince(mark).map((w) => [w.url.split('/').pop(), w.body]),
      [['setForceSSL', { Hostname: 'pzc-sys-ssl.b-cdn.net', ForceSSL: true }]],
      'the documented call on the platform spelling of the name; no addHostname',
    );
    const id = Number(obj.status?.pullZoneId);
    const system = (await client.getPullZone(id)).Hostnames?.find((h) => h.IsSystemHostname);
    t.true(system?.ForceSSL);
    const synced = await pass(ext, obj);
    t.true(synced.obs.upToDate, JSON.stringify(synced.obs.diff));
    t.like(
      synced.obj.status?.hostnames?.find((h) => h.hostname === 'pzc-sys-ssl.b-cdn.net'),
      { forceSSL: true, addedByOperator: false },
    );
    const dropped = await pass(ext, { ...synced.obj, spec: { ...spec, hostnames: [] } });
    t.deepEqual(dropped.obs.diff, [], 'Exact never removes the system hostname');
    const withCert = objectOf('pzc-sys-ssl', {
      hostnames: [{ hostname: 'pzc-sys-ssl.b-cdn.net', certificate: { type: 'Free' } }],
    });
    const err = await t.throwsAsync(
      ext.observe({ ...withCert, status: synced.obj.status }, ctxOf(String(id))),
    );
    t.regex(err?.message ?? '', /system hostname pzc-sys-ssl\.b-cdn\.net .*only forceSSL/);
  },
);

test.serial(
  'hostnames not added by the resource are kept unless hostnamePolicy is Exact',
  async (t) => {
    const ext = external();
    const { obj } = await pass(ext, objectOf('pzc-foreign', { hostnames: [] }));
    const id = Number(obj.status?.pullZoneId);
    await client.addHostname(id, 'foreign.example.com');
    const kept = await pass(ext, obj);
    t.true(kept.obs.upToDate);
    const exact = await pass(ext, { ...kept.obj, spec: { ...obj.spec, hostnamePolicy: 'Exact' } });
    t.deepEqual(
      exact.obs.diff.map((d) => d.field),
      ['Hostnames[foreign.example.com]'],
    );
    const zone = await client.getPullZone(id);
    t.false((zone.Hostnames ?? []).some((h) => h.Value === 'foreign.example.com'));
  },
);

test.serial(
  'custom certificate uploaded once, re-uploaded only when the Secret content changes',
  async (t) => {
    const host = 'cdn.custom.example.com';
    const material = (crt: string, key: string): ResolvedSecrets => ({
      settings: new Map<string, string>(),
      tls: new Map([
        [
          host,
          {
            certificate: Buffer.from(crt).toString('base64'),
            certificateKey: Buffer.from(key).toString('base64'),
            hash: hashTls(crt, key),
          },
        ],
      ]),
    });
    const spec: PullZoneConfigSpec = {
      hostnames: [{ hostname: host, certificate: { type: 'Custom', secretRef: { name: 'tls' } } }],
    };
    let ext = external(material('CERT-1', 'KEY-1'));
    let { obj } = await pass(ext, objectOf('pzc-custom', spec));
    ({ obj } = await pass(ext, obj));
    const hash1 = obj.status?.hostnames?.[0]?.certificate.secretHash;
    t.is(hash1, hashTls('CERT-1', 'KEY-1'));
    const mark = sent.length;
    const steady = await pass(ext, obj);
    t.true(steady.obs.upToDate, JSON.stringify(steady.obs.diff));
    t.is(writesSince(mark).length, 0);

    ext = external(material('CERT-2', 'KEY-2'));
    const mark2 = sent.length;
    const renewed = await pass(ext, steady.obj);
    t.is(renewed.obs.diff.length, 1);
    t.false(JSON.stringify(renewed.obs.diff).includes('KEY-'), 'no key material in the plan');
    const writes = writesSince(mark2);
    t.deepEqual(
      writes.map((w) => w.url.split('/').pop()),
      ['addCertificate'],
    );
    t.is(renewed.obj.status?.hostnames?.[0]?.certificate.secretHash, hashTls('CERT-2', 'KEY-2'));
  },
);

test.serial(
  'delete removes the zone; deleting again and Orphan make no platform call',
  async (t) => {
    const ext = external();
    const { obj } = await pass(ext, objectOf('pzc-delete', {}));
    const id = String(obj.status?.pullZoneId);
    await ext.delete(obj, ctxOf(id));
    t.false(sim.state.pullZones.has(Number(id)));
    await t.notThrowsAsync(ext.delete(obj, ctxOf(id)), '404 on delete is success');
    const kept = await pass(ext, objectOf('pzc-orphan', { deletionPolicy: 'Orphan' }));
    const mark = sent.length;
    await ext.delete(kept.obj, ctxOf(String(kept.obj.status?.pullZoneId)));
    t.is(writesSince(mark).length, 0);
  },
);

test.serial('a first pass without an id reads nothing from the platform', async (t) => {
  const ext = external();
  const mark = sent.length;
  for (const n of ['idx-a', 'idx-b', 'idx-c']) {
    const obs = await ext.observe(objectOf(n, {}), ctxOf(undefined));
    t.false(obs.exists);
  }
  t.is(sent.length, mark, 'no list, no search: the create decides');
});

test.serial(
  'observe and update return the outputs as connection details; the kind writes no Secret',
  async (t) => {
    const ext = external();
    const spec: PullZoneConfigSpec = {
      outputSecretRef: { name: 'out' },
      hostnames: [{ hostname: 'details.example.com' }],
    };
    const { obj } = await pass(ext, objectOf('pzc-details', spec));
    const id = String(obj.status?.pullZoneId);
    const obs = await ext.observe(obj, ctxOf(id));
    t.like(obs.connectionDetails, {
      pullZoneId: id,
      pullZoneName: 'pzc-details',
      cdnHostname: 'pzc-details.b-cdn.net',
      cdnUrl: 'https://pzc-details.b-cdn.net',
      hostnames: '',
    });
    t.is(obs.conditions, undefined, 'no OutputsReady from the kind: the runtime publishes');
    const live = sim.state.pullZones.get(Number(id))?.record;
    const key = live?.ZoneSecurityKey;
    if (typeof key === 'string') t.is(obs.connectionDetails?.zoneSecurityKey, key);
    const res = await ext.update(obj, obs, ctxOf(id));
    t.like(res.connectionDetails, { hostnames: 'details.example.com' }, 'fresh after hostnames');
    t.false(JSON.stringify(res.status).includes('zoneSecurityKey'), 'no key in status');
  },
);

test.serial(
  'a spec.name that differs from the live zone is an InvalidSpec, never ignored as in sync',
  async (t) => {
    const ext = external();
    const { obj } = await pass(ext, objectOf('pzc-renamed', { name: 'pzc-renamed-a' }));
    const id = String(obj.status?.pullZoneId);
    const renamed = { ...obj, spec: { ...obj.spec, name: 'pzc-renamed-b' } };
    const err = await t.throwsAsync(ext.observe(renamed, ctxOf(id)));
    t.like(err, { name: 'TerminalError', reason: 'InvalidSpec' });
    t.regex(err?.message ?? '', /cannot rename pull zone \d+ from pzc-renamed-a to pzc-renamed-b/);
    t.true((await ext.observe(obj, ctxOf(id))).upToDate, 'the original name is in sync');
  },
);

test.serial(
  'create logs nothing at info: the runtime logs each create once (issue 32)',
  async (t) => {
    // Two info lines per create (the kind's and the runtime's "Created external resource") cost
    // the operator a second synchronous stdout write per object at burst rates.
    const lines: Array<{ level: number; msg: string }> = [];
    const log = pino(
      { level: 'info' },
      { write: (line: string) => lines.push(JSON.parse(line) as { level: number; msg: string }) },
    );
    const ext = external();
    const obj = objectOf('pzc-log-once', { settings: { originUrl: 'https://origin.example.com' } });
    const created = await ext.create(obj, { ...ctxOf(), log });
    t.truthy(created.externalId);
    t.deepEqual(lines, []);
  },
);
