/**
 * A finalizer the tenant writes itself never turns a refused object into a platform delete
 * (issue 44, item 1), on a real apiserver with the real operator and cdn-sim. Team-b creates,
 * for every kind that can name a platform id, an object with `metadata.finalizers` set by hand
 * and `deletionPolicy: Delete`, naming by id a resource it may not touch: team-a's (managed by
 * team-a, or made outside on team-a's zones), or an unmanaged one beside a reference the
 * operator refuses. The first pass refuses it; deleting it then makes no platform call at all
 * (the call log, reads included) and records `ReleasedUnacceptedObject`. On 72f93ad the
 * DnsRecord, the shield rules and list, the ShieldPolicy, and the PullZoneConfig and
 * ContainerApp beside a refused reference sent their DELETE (or the shield reset).
 */
import test from 'ava';
import { apply, kubectl, waitFor } from '../support/kube.js';
import { secretYaml } from '../support/operator-env.js';
import { RATE_SPEC, WAF_SPEC } from '../../support/shield-rule-specs.js';
import { simAdmin } from '../support/shield-zones.js';
import {
  appSpec,
  objectYaml,
  resetCalls,
  resourceOf,
  settle,
  simCalls,
  startTenancyEnv,
  waitCondition,
  withTenantFinalizer,
  type TenancyEnv,
} from './setup.js';
import { LIST_SPEC, outsideItems, teamADnsZone, teamAShield } from './team-a.js';

let env: TenancyEnv;

test.before(async () => {
  env = await startTenancyEnv();
});

test.after.always(async () => {
  await env?.stop();
});

/** The ids team-b's objects name. */
interface Targets {
  dnsZone: number;
  record: number;
  shieldZone: number;
  wafRule: number;
  wafRuleElsewhere: number;
  rateLimit: number;
  accessList: number;
  /** Team-a's pull zone, with a shield zone and no ShieldPolicy. */
  unshielded: number;
  storageZone: number;
  registry: number;
  app: string;
  /** A pull zone and an app that no object manages. */
  loosePullZone: number;
  looseApp: string;
}

const REGISTRY = {
  name: 'e2e-fin-registry',
  type: 'GitHub',
  username: 'bot',
  passwordSecretRef: { name: 'reg-pass', key: 'password' },
};

async function ready(kind: string, name: string): Promise<Record<string, unknown>> {
  const obj = await waitCondition(
    resourceOf(kind),
    env.teamA,
    name,
    'Ready',
    'True',
    undefined,
    90_000,
  );
  return obj.status ?? {};
}

/** Team-a's resources (managed by its objects, or made outside on its zones). */
async function teamAResources(): Promise<Targets> {
  const { teamA } = env;
  const dns = await teamADnsZone(env, 'zone', 'e2e-fin-a.example');
  const shield = await teamAShield(env, 'fin-shield');
  const items = await outsideItems(env, shield.shieldZoneId, 'fin');
  const elsewhere = await outsideItems(env, shield.shieldZoneId, 'fin-2');
  await apply(secretYaml(teamA, 'reg-pass', { password: 'team-a-registry-password' }));
  await apply(secretYaml(env.teamB, 'reg-pass', { password: 'team-b-registry-password' }));
  await apply(
    objectYaml('PullZoneConfig', teamA, 'site', {
      settings: { originUrl: 'https://a.example.com' },
    }),
  );
  await apply(objectYaml('StorageZone', teamA, 'files', { name: 'e2e-fin-files', region: 'DE' }));
  await apply(objectYaml('ContainerRegistry', teamA, 'registry', REGISTRY));
  await apply(objectYaml('ContainerApp', teamA, 'api', appSpec('fin api')));
  const site = await ready('PullZoneConfig', 'site');
  const unshielded = Number(site.pullZoneId);
  // A shield zone team-a set up by hand: WAF off (a policy's Reset would turn it on).
  const seeded = (await simAdmin(env.sim, 'POST', '/_sim/seed', {
    shieldZones: [{ pullZoneId: unshielded, planType: 1 }],
  })) as { shieldZones: number[] };
  await env.cdn.updateShieldZone({
    shieldZoneId: seeded.shieldZones[0]!,
    shieldZone: { wafEnabled: false },
  });
  const loose = await env.cdn.addPullZone({
    Name: 'e2e-fin-loose',
    OriginUrl: 'https://l.example.com',
  });
  const looseApp = await env.cdn.createApp({
    name: 'fin loose',
    runtimeType: 'shared',
    autoScaling: { min: 1, max: 1 },
    regionSettings: { requiredRegionIds: ['DE'] },
    containerTemplates: [
      {
        name: 'web',
        imageName: 'nginx',
        imageNamespace: 'library',
        imageTag: '1.25',
        imageRegistryId: 'dockerhub',
        imagePullPolicy: 'always',
      },
    ],
  } as never);
  return {
    dnsZone: dns.zoneId,
    record: dns.recordId,
    shieldZone: shield.shieldZoneId,
    wafRule: items.wafRule,
    wafRuleElsewhere: elsewhere.wafRule,
    rateLimit: items.rateLimit,
    accessList: items.accessList,
    unshielded,
    storageZone: Number((await ready('StorageZone', 'files')).storageZoneId),
    registry: Number((await ready('ContainerRegistry', 'registry')).registryId),
    app: String((await ready('ContainerApp', 'api')).appId),
    loosePullZone: Number(loose.Id),
    looseApp: String(looseApp.id),
  };
}

/** One attack: team-b's object and what it names. */
interface Attack {
  kind: string;
  name: string;
  why: string;
  spec: (a: Targets) => Record<string, unknown>;
  /** The platform paths of what it names (reads and writes). */
  at: (a: Targets) => RegExp;
}

const ATTACKS: Attack[] = [
  {
    kind: 'DnsRecord',
    name: 'record',
    why: "team-a's zone and one of its inline records",
    spec: (a) => ({
      dnsZoneId: a.dnsZone,
      adoption: { policy: 'ById', id: a.record },
      type: 'A',
      name: 'www',
    }),
    at: (a) => new RegExp(`^/dnszone/${a.dnsZone}/records/${a.record}$`),
  },
  {
    kind: 'ShieldWafRule',
    name: 'waf',
    why: "an unmanaged WAF rule on team-a's shield zone",
    spec: (a) => ({
      shieldZoneId: a.shieldZone,
      adoption: { policy: 'ById', id: a.wafRule },
      ...WAF_SPEC,
    }),
    at: (a) => new RegExp(`^/shield/waf/custom-rule/${a.wafRule}$`),
  },
  {
    kind: 'ShieldWafRule',
    name: 'waf-elsewhere',
    why: 'the same with a shield zone id that is not the rule’s',
    spec: (a) => ({
      shieldZoneId: 2_000_000_000,
      adoption: { policy: 'ById', id: a.wafRuleElsewhere },
      ...WAF_SPEC,
    }),
    at: (a) => new RegExp(`^/shield/waf/custom-rule/${a.wafRuleElsewhere}$`),
  },
  {
    kind: 'ShieldRateLimit',
    name: 'rate',
    why: "an unmanaged rate limit on team-a's shield zone",
    spec: (a) => ({
      shieldZoneId: a.shieldZone,
      adoption: { policy: 'ById', id: a.rateLimit },
      ...RATE_SPEC,
    }),
    at: (a) => new RegExp(`^/shield/rate-limit/${a.rateLimit}$`),
  },
  {
    kind: 'ShieldAccessList',
    name: 'list',
    why: "an unmanaged access list on team-a's shield zone",
    spec: (a) => ({
      shieldZoneId: a.shieldZone,
      adoption: { policy: 'ById', id: a.accessList },
      ...LIST_SPEC,
    }),
    at: (a) => new RegExp(`^/shield/shield-zone/${a.shieldZone}/access-lists(/${a.accessList})?$`),
  },
  {
    kind: 'ShieldPolicy',
    name: 'policy',
    why: "team-a's pull zone that has a shield zone and no ShieldPolicy",
    spec: (a) => ({ pullZoneId: a.unshielded, waf: { enabled: false }, deletionPolicy: 'Reset' }),
    at: (a) => new RegExp(`^/shield/shield-zone(/get-by-pullzone/${a.unshielded})?$`),
  },
  {
    kind: 'PullZoneConfig',
    name: 'zone',
    why: "an unmanaged pull zone beside team-a's storage zone (refused reference)",
    spec: (a) => ({
      adoption: { policy: 'ById', id: a.loosePullZone },
      settings: { loggingStorageZoneId: a.storageZone },
    }),
    at: (a) => new RegExp(`^/pullzone/${a.loosePullZone}(/|$)`),
  },
  {
    kind: 'ContainerApp',
    name: 'app',
    why: "an unmanaged app beside team-a's pull zone (refused reference)",
    spec: (a) =>
      appSpec(
        'fin b',
        { adoption: { policy: 'ById', id: a.looseApp } },
        {
          endpoints: [
            {
              displayName: 'cdn',
              cdn: { pullZoneId: a.unshielded, portMappings: [{ containerPort: 80 }] },
            },
          ],
        },
      ),
    at: (a) => new RegExp(`^/mc/apps/${a.looseApp}(/|$)`),
  },
  {
    kind: 'ContainerApp',
    name: 'app-managed',
    why: "team-a's app",
    spec: (a) => appSpec('fin api', { adoption: { policy: 'ById', id: a.app } }),
    at: (a) => new RegExp(`^/mc/apps/${a.app}(/|$)`),
  },
  {
    kind: 'PullZoneConfig',
    name: 'zone-managed',
    why: "team-a's pull zone",
    spec: (a) => ({ adoption: { policy: 'ById', id: a.unshielded } }),
    at: (a) => new RegExp(`^/pullzone/${a.unshielded}(/|$)`),
  },
  {
    kind: 'StorageZone',
    name: 'files',
    why: "team-a's storage zone",
    spec: (a) => ({ adoption: { policy: 'ById', id: a.storageZone } }),
    at: (a) => new RegExp(`^/storagezone/${a.storageZone}(/|$)`),
  },
  {
    kind: 'DnsZone',
    name: 'dns',
    why: "team-a's DNS zone",
    spec: (a) => ({ adoption: { policy: 'ById', id: a.dnsZone } }),
    at: (a) => new RegExp(`^/dnszone/${a.dnsZone}$`),
  },
  {
    kind: 'ContainerRegistry',
    name: 'registry',
    why: "team-a's registry",
    spec: (a) => ({ ...REGISTRY, adoption: { policy: 'ById', id: a.registry } }),
    at: (a) => new RegExp(`^/mc/registries/${a.registry}$`),
  },
];

/** The Events of team-b's objects, by object name. */
async function releasedEvents(): Promise<Set<string>> {
  const out = JSON.parse(await kubectl(['get', 'events', '-n', env.teamB, '-o', 'json'])) as {
    items: Array<{ reason?: string; involvedObject?: { kind?: string; name?: string } }>;
  };
  return new Set(
    out.items
      .filter((e) => e.reason === 'ReleasedUnacceptedObject')
      .map((e) => `${e.involvedObject?.kind}/${e.involvedObject?.name}`),
  );
}

test.serial(
  'a refused object with a finalizer its tenant wrote deletes nothing and calls nothing when deleted, for every kind',
  async (t) => {
    t.timeout(8 * 60_000);
    const { teamA, teamB } = env;
    const targets = await teamAResources();
    for (const a of ATTACKS) {
      const spec = { deletionPolicy: 'Delete', ...a.spec(targets) };
      await apply(withTenantFinalizer(objectYaml(a.kind, teamB, a.name, spec)));
    }
    for (const a of ATTACKS) {
      const obj = await waitCondition(resourceOf(a.kind), teamB, a.name, 'Synced', 'False');
      const synced = obj.status?.conditions?.find((c) => c.type === 'Synced');
      t.log(`${a.kind}/${a.name} (${a.why}): ${synced?.reason}`);
    }
    // Team-a's objects are paused, so any call in the window below is team-b's.
    const kinds = [...new Set([...ATTACKS.map((a) => a.kind), 'ShieldPolicy'])].map(resourceOf);
    await kubectl([
      'annotate',
      kinds.join(','),
      '--all',
      '-n',
      teamA,
      'cdn.operator.io/paused=true',
    ]);
    await settle(3000);
    await resetCalls(env.sim);
    await kubectl(['delete', kinds.join(','), '--all', '-n', teamB, '--wait=false']);
    await waitFor(
      async () =>
        JSON.parse(await kubectl(['get', kinds.join(','), '-n', teamB, '-o', 'json'])).items
          .length === 0,
      90_000,
      "team-b's objects gone",
      250,
    );
    await settle(3000);
    const calls = await simCalls(env.sim);
    // One table, so a failure shows every kind at once.
    const seen = ATTACKS.map((a) => ({
      attack: `${a.kind}/${a.name}: ${a.why}`,
      calls: calls.filter((c) => a.at(targets).test(c.path)).map((c) => `${c.method} ${c.path}`),
    }));
    t.deepEqual(
      seen,
      seen.map((s) => ({ ...s, calls: [] })),
      'nothing team-b named is touched',
    );
    t.deepEqual(
      calls.map((c) => `${c.method} ${c.path}`),
      [],
      'no platform call at all',
    );
    const released = await releasedEvents();
    t.deepEqual(
      ATTACKS.map((a) => `${a.kind}/${a.name}`).filter((k) => !released.has(k)),
      [],
      'every object released with ReleasedUnacceptedObject',
    );
  },
);
