/**
 * DnsZone end to end, driven with `kubectl apply` against a real kube-apiserver, a real
 * operator process watching two tenant namespaces, and cdn-sim (strict): create with DNSSEC
 * (the DS record in status is cdn-sim's key), settings and record updates that send only what
 * differs, DNSSEC off, drift restored, Additive keeping and Exact removing an unmanaged record,
 * the domain refused as immutable, adoption by id and by domain, a second namespace refused
 * (NameTaken / AlreadyManaged) with no platform write, export -> apply -> no write at all (a
 * signed zone included: no DNSSEC call), deletion, and nothing cdn-sim rejected.
 */
import test from 'ava';
import { CdnClient } from '../../../src/cdn/client.js';
import { exportAccount } from '../../../src/cli/export/export-account.js';
import { parseExportOptions } from '../../../src/cli/export/options.js';
import type { StoredDnsZone } from '../../../src/simulator/dns-state.js';
import { dsRecordOf } from '../../../src/simulator/routes/dns-dnssec.js';
import { startSimulator, type SimulatorHandle } from '../../../src/simulator/server.js';
import {
  accountJson,
  defaultAccountArgs,
  deleteAccount,
  namespacesSelector,
} from '../support/account.js';
import { applyAllCrds } from '../support/crds.js';
import {
  apply,
  conditionOf,
  createNamespace,
  deleteNamespace,
  deleteObject,
  getObject,
  kubectl,
  kubectlRaw,
  waitFor,
  waitForCondition,
  type KubeJson,
} from '../support/kube.js';
import { secretYaml } from '../support/operator-env.js';
import { startOperator, type OperatorProcess } from '../support/operator.js';

const RESOURCE = 'dnszones.dns.cdn.operator.io';
const API_KEY = 'e2e-dnszone-key';

interface Env {
  ops: string;
  teamA: string;
  teamB: string;
  sim: SimulatorHandle;
  cdn: CdnClient;
  operator: OperatorProcess;
}
let env: Env;

test.before(async () => {
  const kubeconfig = process.env.KUBECONFIG;
  if (!kubeconfig)
    throw new Error('KUBECONFIG is not set: run through test/cluster/with-cluster.ts');
  await applyAllCrds();
  const ops = await createNamespace('e2e-dns-ops');
  const teamA = await createNamespace('e2e-dns-a');
  const teamB = await createNamespace('e2e-dns-b');
  await apply(secretYaml(ops, 'cdn-credentials', { apiKey: API_KEY }));
  await apply(accountJson(ops, 'cdn-credentials', namespacesSelector(teamA, teamB)));
  const sim = await startSimulator({ apiKeys: [{ key: API_KEY }] });
  const operator = await startOperator({
    kubeconfig,
    args: ['--namespace', `${teamA},${teamB}`, '--api-url', sim.url, ...defaultAccountArgs(ops)],
  });
  const cdn = new CdnClient({ baseUrl: sim.url, credentials: API_KEY, retry: { maxAttempts: 1 } });
  env = { ops, teamA, teamB, sim, cdn, operator };
});

test.after.always(async () => {
  if (!env) return;
  for (const ns of [env.teamA, env.teamB])
    await kubectlRaw(['delete', RESOURCE, '--all', '-n', ns, '--wait=true', '--timeout=60s']);
  await env.operator.stop();
  env.cdn.close();
  await env.sim.close();
  await deleteAccount(env.ops);
  for (const ns of [env.ops, env.teamA, env.teamB]) await deleteNamespace(ns);
});

function zoneJson(
  ns: string,
  name: string,
  spec: Record<string, unknown>,
  pollSeconds?: number,
): string {
  const annotations = pollSeconds ? { 'cdn.operator.io/poll-interval': `${pollSeconds}s` } : {};
  return JSON.stringify({
    apiVersion: 'dns.cdn.operator.io/v1beta1',
    kind: 'DnsZone',
    metadata: { name, namespace: ns, annotations },
    spec,
  });
}

/** Routes of the DNS requests since `since` calls, reads left out unless `all`. */
function dnsCalls(since: number, all = false): string[] {
  return env.sim.calls
    .snapshot()
    .log.slice(since)
    .filter((c) => c.path.startsWith('/dnszone') && (all || c.method !== 'GET'))
    .map((c) => c.route);
}

const callCount = (): number => env.sim.calls.snapshot().log.length;

async function ready(ns: string, name: string): Promise<KubeJson> {
  await waitForCondition(RESOURCE, ns, name, 'Synced', 'True');
  return waitForCondition(RESOURCE, ns, name, 'Ready', 'True');
}

const zoneIdOf = (obj: KubeJson): number => Number(obj.status?.dnsZoneId);
const stored = (id: number): StoredDnsZone | undefined => env.sim.state.dnsZones.get(id);
const quiet = (ms = 1500): Promise<void> => new Promise((r) => setTimeout(r, ms));

const SHOP_RECORDS = [
  { type: 'A', name: '', value: '192.0.2.10', ttl: 300 },
  { type: 'MX', value: 'mail.shop.example', priority: 10 },
  { type: 'TXT', name: '_dmarc', value: 'v=DMARC1; p=none' },
  { type: 'CAA', value: 'letsencrypt.org', flags: 0, tag: 'issue' },
];

function shopSpec(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    domain: 'shop.example',
    dnssec: { enabled: true },
    logging: { enabled: true, ipAnonymization: true, anonymizationType: 'OneDigit' },
    records: SHOP_RECORDS,
    ...extra,
  };
}

test.serial(
  'create with DNSSEC: the DS record in status is the zone key; one call per change',
  async (t) => {
    const before = callCount();
    await apply(zoneJson(env.teamA, 'shop', shopSpec(), 3));
    const obj = await ready(env.teamA, 'shop');
    const id = zoneIdOf(obj);
    const zone = stored(id);
    t.truthy(zone);
    t.like(zone?.zone, { Domain: 'shop.example', DnsSecEnabled: true, LoggingEnabled: true });
    t.deepEqual(
      zone?.records.map((r) => [r.Type, r.Name, r.Value]),
      [
        [0, '', '192.0.2.10'],
        [4, '', 'mail.shop.example'],
        [3, '_dmarc', 'v=DMARC1; p=none'],
        [9, '', 'letsencrypt.org'],
      ],
    );
    t.deepEqual(dnsCalls(before), [
      'POST /dnszone/checkavailability',
      'POST /dnszone',
      'POST /dnszone/{id}',
      'POST /dnszone/{id}/dnssec',
      'PUT /dnszone/{zoneId}/records',
      'PUT /dnszone/{zoneId}/records',
      'PUT /dnszone/{zoneId}/records',
      'PUT /dnszone/{zoneId}/records',
    ]);
    const ds = dsRecordOf('shop.example', zone!.hidden.dnsSec!);
    t.deepEqual(obj.status?.dnssec, {
      enabled: true,
      dsRecord: ds.DsRecord,
      algorithm: 13,
      digest: ds.Digest,
      digestType: 'SHA256 (2)',
      keyTag: ds.KeyTag,
      flags: 257,
      publicKey: ds.PublicKey,
    });
    t.is((obj.status?.records as unknown[]).length, 4);
    const table = await kubectl(['get', 'dnsz', 'shop', '-n', env.teamA]);
    t.regex(table, /NAME\s+READY\s+SYNCED\s+ID\s+DOMAIN\s+DNSSEC\s+RECORDS\s+AGE/);
    t.regex(table, new RegExp(`shop\\s+True\\s+True\\s+${id}\\s+shop\\.example\\s+true\\s+4`));
    await quiet();
    t.deepEqual(dnsCalls(before).length, 8, 'no write once in sync');
  },
);

test.serial('an update sends only what differs; DNSSEC off empties the DS record', async (t) => {
  const id = zoneIdOf(await ready(env.teamA, 'shop'));
  let before = callCount();
  const records = SHOP_RECORDS.map((r) => (r.type === 'A' ? { ...r, ttl: 60 } : r));
  await apply(
    zoneJson(
      env.teamA,
      'shop',
      shopSpec({
        records,
        logging: { enabled: true, ipAnonymization: true, anonymizationType: 'Drop' },
      }),
      3,
    ),
  );
  await waitFor(() => stored(id)?.zone.LogAnonymizationType === 1, 30_000, 'anonymization Drop');
  await waitFor(() => stored(id)?.records[0]?.Ttl === 60, 30_000, 'TTL 60');
  await ready(env.teamA, 'shop');
  await quiet();
  t.deepEqual(dnsCalls(before), ['POST /dnszone/{id}', 'POST /dnszone/{zoneId}/records/{id}']);
  before = callCount();
  await apply(
    zoneJson(
      env.teamA,
      'shop',
      shopSpec({
        records,
        dnssec: { enabled: false },
        logging: { enabled: true, ipAnonymization: true, anonymizationType: 'Drop' },
      }),
      3,
    ),
  );
  await waitFor(() => stored(id)?.zone.DnsSecEnabled === false, 30_000, 'DNSSEC off');
  const off = await waitFor(
    async () => {
      const o = await ready(env.teamA, 'shop');
      return (o.status?.dnssec as { enabled?: boolean } | undefined)?.enabled === false
        ? o
        : undefined;
    },
    30_000,
    'status.dnssec off',
  );
  t.deepEqual(off.status?.dnssec, { enabled: false }, 'no DS record left in status');
  t.deepEqual(dnsCalls(before), ['DELETE /dnszone/{id}/dnssec']);
});

test.serial(
  'drift: a setting changed outside Kubernetes is restored at the next poll',
  async (t) => {
    const id = zoneIdOf(await ready(env.teamA, 'shop'));
    await env.cdn.updateDnsZone(id, { LoggingEnabled: false });
    t.false(stored(id)?.zone.LoggingEnabled);
    await waitFor(() => stored(id)?.zone.LoggingEnabled === true, 30_000, 'logging restored');
    t.is(stored(id)?.zone.LogAnonymizationType, 1);
    // A deleted listed record is recreated too.
    const txt = stored(id)!.records.find((r) => r.Type === 3)!;
    await env.cdn.deleteDnsRecord(id, Number(txt.Id));
    await waitFor(
      () => stored(id)?.records.some((r) => r.Type === 3 && r.Name === '_dmarc'),
      30_000,
      'TXT record restored',
    );
    t.pass();
  },
);

test.serial('Additive keeps an unmanaged record; Exact removes it, and only it', async (t) => {
  const id = zoneIdOf(await ready(env.teamA, 'shop'));
  const extra = await env.cdn.addDnsRecord(id, {
    Type: 2,
    Name: 'blog',
    Value: 'blog.host.example',
    Ttl: 300,
  });
  await quiet(7000); // two polls
  t.true(
    stored(id)?.records.some((r) => r.Id === extra.Id),
    'Additive keeps it',
  );
  const before = callCount();
  const spec = shopSpec({
    dnssec: { enabled: false },
    records: SHOP_RECORDS.map((r) => (r.type === 'A' ? { ...r, ttl: 60 } : r)),
    logging: { enabled: true, ipAnonymization: true, anonymizationType: 'Drop' },
    recordPolicy: 'Exact',
  });
  await apply(zoneJson(env.teamA, 'shop', spec, 3));
  await waitFor(() => !stored(id)?.records.some((r) => r.Id === extra.Id), 30_000, 'blog deleted');
  await ready(env.teamA, 'shop');
  await quiet();
  t.deepEqual(dnsCalls(before), ['DELETE /dnszone/{zoneId}/records/{id}']);
  t.is(stored(id)?.records.length, 4);
});

test.serial(
  'the domain is immutable (apiserver); an invalid spec is refused with its reason',
  async (t) => {
    const moved = await kubectlRaw([
      'patch',
      'dnsz',
      'shop',
      '-n',
      env.teamA,
      '--type',
      'merge',
      '-p',
      '{"spec":{"domain":"other.example"}}',
    ]);
    t.not(moved.code, 0);
    t.regex(moved.stderr, /domain is immutable/);
    const soa = await kubectlRaw(
      ['apply', '-f', '-'],
      zoneJson(env.teamA, 'bad', { domain: 'bad.example', soaEmail: 'x@bad.example' }),
    );
    t.not(soa.code, 0);
    t.regex(soa.stderr, /soaEmail needs customNameservers\.enabled: true/);
  },
);

test.serial('adoption by id and by domain; Orphan by default when adopted', async (t) => {
  const byId = await env.cdn.addDnsZone({ Domain: 'legacy-id.example' });
  const byName = await env.cdn.addDnsZone({ Domain: 'Legacy-Name.example' });
  const before = callCount();
  await apply(zoneJson(env.teamA, 'legacy-id', { adoption: { policy: 'ById', id: byId.Id! } }));
  await apply(
    zoneJson(env.teamA, 'legacy-name', {
      domain: 'legacy-name.EXAMPLE',
      adoption: { policy: 'ByName' },
    }),
  );
  t.is(zoneIdOf(await ready(env.teamA, 'legacy-id')), byId.Id!);
  const named = await ready(env.teamA, 'legacy-name');
  t.is(zoneIdOf(named), byName.Id!);
  t.like(named.status?.ownership, { adopted: true, deletionPolicy: 'Orphan' });
  await quiet();
  t.deepEqual(dnsCalls(before), [], 'adopting with nothing to change writes nothing');
  await deleteObject(RESOURCE, env.teamA, 'legacy-id');
  await waitFor(
    async () => (await getObject(RESOURCE, env.teamA, 'legacy-id')) === undefined,
    30_000,
    'gone',
  );
  t.true(env.sim.state.dnsZones.has(Number(byId.Id)), 'an adopted zone is orphaned');
});

test.serial(
  'a second namespace asking for the same zone is refused, with no platform write',
  async (t) => {
    const shopId = zoneIdOf(await ready(env.teamA, 'shop'));
    const before = callCount();
    await apply(zoneJson(env.teamB, 'steal-create', { domain: 'SHOP.example' }));
    await apply(
      zoneJson(env.teamB, 'steal-id', {
        adoption: { policy: 'ById', id: shopId },
        dnssec: { enabled: true },
        recordPolicy: 'Exact',
      }),
    );
    await apply(
      zoneJson(env.teamB, 'steal-name', {
        domain: 'shop.example',
        adoption: { policy: 'ByName' },
        recordPolicy: 'Exact',
      }),
    );
    const taken = await waitForCondition(
      RESOURCE,
      env.teamB,
      'steal-create',
      'Synced',
      'False',
      'NameTaken',
    );
    t.regex(conditionOf(taken, 'Synced')?.message ?? '', /already has a zone/);
    for (const name of ['steal-id', 'steal-name'])
      await waitForCondition(RESOURCE, env.teamB, name, 'Synced', 'False', 'AlreadyManaged');
    await quiet(4000);
    t.deepEqual(
      dnsCalls(before).filter((r) => r !== 'POST /dnszone/checkavailability'),
      [],
      'no write (the availability check only reads)',
    );
    t.is(stored(shopId)?.records.length, 4, 'the zone is untouched');
    for (const name of ['steal-create', 'steal-id', 'steal-name'])
      await deleteObject(RESOURCE, env.teamB, name);
    for (const name of ['steal-create', 'steal-id', 'steal-name'])
      await waitFor(
        async () => (await getObject(RESOURCE, env.teamB, name)) === undefined,
        30_000,
        `${name} gone`,
      );
    t.true(env.sim.state.dnsZones.has(shopId), 'deleting the refused objects deletes nothing');
  },
);

test.serial(
  'export -> apply: the zones reach Ready without a change on the platform',
  async (t) => {
    const plain = await env.cdn.addDnsZone({ Domain: 'export-plain.example' });
    await env.cdn.updateDnsZone(plain.Id!, {
      CustomNameserversEnabled: true,
      Nameserver1: 'ns1.export-plain.example',
      Nameserver2: 'ns2.export-plain.example',
      SoaEmail: 'dns@export-plain.example',
      LoggingEnabled: true,
      LogAnonymizationType: 1,
      CertificateKeyType: 1,
    });
    await env.cdn.addDnsRecord(plain.Id!, { Type: 0, Name: 'www', Value: '192.0.2.1' });
    const signed = await env.cdn.addDnsZone({ Domain: 'export-signed.example' });
    await env.cdn.enableDnsSec(signed.Id!);
    const result = await exportAccount(
      env.cdn,
      parseExportOptions({ kinds: 'DnsZone', namespace: env.teamB }),
    );
    const wanted = result.objects.filter((o) =>
      ['export-plain.example', 'export-signed.example'].includes(
        String((o.manifest.spec as { domain?: string }).domain),
      ),
    );
    t.is(wanted.length, 2);
    const modified = [plain.Id, signed.Id].map((id) => stored(Number(id))?.zone.DateModified);
    const before = callCount();
    for (const o of wanted) await apply(JSON.stringify(o.manifest));
    const objs = await Promise.all(wanted.map((o) => ready(env.teamB, o.name)));
    await quiet();
    // A signed zone gets no DNSSEC call: the DS record is answered only by the call that turns
    // DNSSEC on, a write (issue 53); the registrar already has it.
    t.deepEqual(dnsCalls(before), []);
    t.deepEqual(
      [plain.Id, signed.Id].map((id) => stored(Number(id))?.zone.DateModified),
      modified,
      'nothing changed',
    );
    const signedObj = objs.find((o) => zoneIdOf(o) === signed.Id);
    t.deepEqual(signedObj?.status?.dnssec, { enabled: true });
    t.is(stored(Number(plain.Id))?.records.length, 1, 'the exported zone keeps its records');
  },
);

test.serial(
  'a zone deleted outside Kubernetes is created again (a recorded id reads 404)',
  async (t) => {
    const old = zoneIdOf(await ready(env.teamA, 'shop'));
    await env.cdn.deleteDnsZone(old);
    const obj = await waitFor(
      async () => {
        const o = await getObject(RESOURCE, env.teamA, 'shop');
        const id = o ? zoneIdOf(o) : old;
        return id !== old && env.sim.state.dnsZones.has(id) ? o : undefined;
      },
      30_000,
      'a new zone recorded',
    );
    const id = zoneIdOf(obj);
    await waitFor(() => stored(id)?.records.length === 4, 30_000, 'records created again');
    t.like(stored(id)?.zone, { Domain: 'shop.example', LoggingEnabled: true });
  },
);

test.serial('delete with Delete removes the zone', async (t) => {
  const id = zoneIdOf(await ready(env.teamA, 'shop'));
  await deleteObject(RESOURCE, env.teamA, 'shop');
  await waitFor(
    async () => (await getObject(RESOURCE, env.teamA, 'shop')) === undefined,
    60_000,
    'shop gone',
  );
  t.false(env.sim.state.dnsZones.has(id));
});

// Runs last (serial): every request of this file.
test.serial('the operator sent nothing the official documents reject (cdn-sim strict)', (t) => {
  const rejected = env.sim.calls.snapshot().rejectedByDocument;
  t.is(rejected.count, 0, JSON.stringify(rejected.log));
});
