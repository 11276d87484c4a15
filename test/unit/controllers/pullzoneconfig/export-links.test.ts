/**
 * `cdnctl export` and `cdnctl diff` of pull zones the platform made (issue 48), against an
 * in-process cdn-sim: exported with their owners, the zones of an accelerated DNS record, a
 * container app endpoint and a standalone script are PullZoneConfigs linking the owner
 * (`spec.pullZoneFrom`, no adoption, no origin the owner fixes); exported alone, they adopt by
 * id as before; `cdnctl diff` compares a linked manifest with its owner's zone (no change, never
 * a create) and skips one whose owner is not compared.
 */
import test from 'ava';
import { CdnClient } from '../../../../src/cdn/client.js';
import { exportAccount } from '../../../../src/cli/export/export-account.js';
import { planPullZone } from '../../../../src/controllers/pullzoneconfig/plan.js';
import type { PullZoneConfig } from '../../../../src/controllers/pullzoneconfig/types.js';
import type {
  ExportOptions,
  ExportResult,
} from '../../../../src/controllers/shared/manifest-export.js';
import type { PlanContext } from '../../../../src/controllers/shared/manifest-plan.js';
import type { ManagedObject } from '../../../../src/runtime/types.js';
import { startSimulator, type SimulatorHandle } from '../../../../src/simulator/server.js';
import { toCreateBody } from '../../../../src/controllers/containerapp/mapping.js';
import { baseSpec, desiredOf } from '../containerapp/fixtures.js';

const API_KEY = 'pzc-export-links-key';
const KINDS = ['PullZoneConfig', 'DnsZone', 'DnsRecord', 'ContainerApp', 'EdgeScript'];

let sim: SimulatorHandle;
let client: CdnClient;
/** The zone of each owner, and a zone of no owner. */
const zones = new Map<string, number>();

function opts(kinds: string[]): ExportOptions {
  return {
    namespace: 'team-a',
    kinds: new Set(kinds),
    deletionPolicy: 'Delete',
    account: {},
    secretEnvPattern: /SECRET/,
    customCertificates: 'omit',
  };
}

test.before(async () => {
  sim = await startSimulator({ apiKeys: [{ key: API_KEY }] });
  client = new CdnClient({ baseUrl: sim.url, credentials: API_KEY, retry: { maxAttempts: 1 } });
  const plain = await client.addPullZone({ Name: 'plain-zone', OriginUrl: 'https://o.example' });
  zones.set('plain', Number(plain.Id));
  const dns = await client.addDnsZone({ Domain: 'links.example' });
  const record = await client.addDnsRecord(Number(dns.Id), {
    Type: 0,
    Name: 'fast',
    Value: '192.0.2.10',
    Accelerated: true,
  });
  const read = await client.getDnsZone(Number(dns.Id));
  const fast = read.Records?.find((r) => r.Id === record.Id);
  zones.set('DnsRecord', Number(fast?.AcceleratedPullZoneId));
  const script = await client.addEdgeScript({
    Name: 'site',
    ScriptType: 1,
    Code: 'export default () => new Response("site");',
    CreateLinkedPullZone: true,
  });
  zones.set(
    'EdgeScript',
    Number((await client.getEdgeScript(Number(script.Id))).LinkedPullZones?.[0]?.Id),
  );
  // Containers web (a CDN endpoint `http`) and worker.
  const app = await client.createApp(toCreateBody(desiredOf(baseSpec())));
  const live = await client.getApp(String(app.id));
  const endpoint = live.containerTemplates?.[0]?.endpoints?.[0] as
    { pullZoneId?: string } | undefined;
  zones.set('ContainerApp', Number(endpoint?.pullZoneId));
});

test.after.always(async () => {
  client?.close();
  await sim?.close();
});

/** The exported PullZoneConfig of zone `id`: adopting it, or linking the owner whose zone it is. */
function zoneObject(result: ExportResult, id: number): PullZoneConfig {
  const found = result.objects
    .filter((o) => o.kind === 'PullZoneConfig')
    .map((o) => o.manifest as unknown as PullZoneConfig)
    .find((m) => {
      const from = m.spec?.pullZoneFrom;
      return m.spec?.adoption?.id === id || (from !== undefined && zones.get(from.kind) === id);
    });
  if (!found) throw new Error(`cannot find the exported PullZoneConfig of zone ${id}`);
  return found;
}

const OWNERS: { kind: string; from: (names: Map<string, string>) => Record<string, string> }[] = [
  { kind: 'DnsRecord', from: (n) => ({ kind: 'DnsRecord', name: n.get('DnsRecord')! }) },
  {
    kind: 'ContainerApp',
    from: (n) => ({
      kind: 'ContainerApp',
      name: n.get('ContainerApp')!,
      container: 'web',
      endpoint: 'http',
    }),
  },
  { kind: 'EdgeScript', from: (n) => ({ kind: 'EdgeScript', name: n.get('EdgeScript')! }) },
];

/** The exported object name of the one owner of each kind. */
function ownerNames(result: ExportResult): Map<string, string> {
  const out = new Map<string, string>();
  for (const o of result.objects) {
    if (o.kind === 'DnsRecord' && o.name.includes('fast')) out.set(o.kind, o.name);
    if (o.kind === 'ContainerApp' || o.kind === 'EdgeScript') out.set(o.kind, o.name);
  }
  return out;
}

test('exported with their owners, platform-made zones link them; others adopt by id', async (t) => {
  const result = await exportAccount(client, opts(KINDS));
  const names = ownerNames(result);
  for (const o of OWNERS) {
    const obj = zoneObject(result, zones.get(o.kind)!);
    t.truthy(obj, `${o.kind}: its zone is exported`);
    t.deepEqual(obj.spec?.pullZoneFrom, o.from(names), `${o.kind}: linked`);
    t.is(obj.spec?.adoption, undefined, `${o.kind}: no adoption`);
    t.is(obj.spec?.deletionPolicy, undefined, `${o.kind}: no deletion policy (Orphan)`);
    for (const k of ['originType', 'originUrl', 'edgeScriptId', 'magicContainersAppId'])
      t.is(obj.spec?.settings?.[k], undefined, `${o.kind}: settings.${k} left to the owner`);
    t.true(
      result.notes.some((n) => n.includes(`links the pull zone of ${o.kind}`)),
      `${o.kind}: a note says so`,
    );
  }
  const plain = zoneObject(result, zones.get('plain')!);
  t.deepEqual(plain.spec?.adoption, { policy: 'ById', id: zones.get('plain') });
  t.is(plain.spec?.deletionPolicy, 'Delete');
});

test('exported alone, a platform-made zone adopts by id as before', async (t) => {
  const result = await exportAccount(client, opts(['PullZoneConfig']));
  for (const o of OWNERS) {
    const obj = zoneObject(result, zones.get(o.kind)!);
    t.deepEqual(obj.spec?.adoption, { policy: 'ById', id: zones.get(o.kind) }, o.kind);
    t.is(obj.spec?.pullZoneFrom, undefined, o.kind);
  }
});

test('cdnctl diff compares a linked manifest with its owner zone; never a create', async (t) => {
  const result = await exportAccount(client, opts(KINDS));
  const manifests = result.objects.map((o) => o.manifest as unknown as ManagedObject);
  const ctx: PlanContext = { objectsOf: (kind) => manifests.filter((m) => m.kind === kind) };
  const names = ownerNames(result);
  for (const o of OWNERS) {
    const obj = zoneObject(result, zones.get(o.kind)!);
    const plan = await planPullZone(client, obj, ctx);
    t.like(
      plan,
      { action: 'none', id: String(zones.get(o.kind)) },
      `${o.kind}: ${plan.note ?? ''}`,
    );
    t.deepEqual(obj.spec?.pullZoneFrom, o.from(names));
  }
  const alone: PlanContext = { objectsOf: () => [] };
  const obj = zoneObject(result, zones.get('EdgeScript')!);
  const plan = await planPullZone(client, obj, alone);
  t.is(plan.action, 'skipped');
  t.regex(plan.note ?? '', /not among the compared manifests.*never creates a pull zone/);
});
