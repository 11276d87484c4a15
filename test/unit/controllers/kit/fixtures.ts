/**
 * Each reconciled kind as the conformance table drives it: a valid spec for a platform name, how
 * to make a resource of another owner with that name directly on the platform, how to list the
 * resources with that name, and the routes of its create and delete.
 */
import type { Stage, World } from './world.js';
import { RATE_SPEC, WAF_SPEC } from '../../../support/shield-rule-specs.js';
import { gadgetsOf } from '../fixtures/gadget/index.js';

/** A platform resource: its id and name. */
export interface Found {
  id: string;
  name: string;
}

/** One kind under the table. */
export interface KindFixture {
  kind: string;
  /** `unique`: the platform refuses a second resource with a name. */
  names: 'unique' | 'shared';
  /** Status field of the id. */
  idField: string;
  /** Route (`METHOD /template`) of the create and of the delete. */
  createRoute: string;
  deleteRoute: string;
  /** Prepares what the kind needs (a zone), once per world; the stage of its objects. */
  prepare(w: World): Promise<KindScene>;
}

/** A prepared kind: the stage, a spec for a name, a foreign resource, the resources named. */
export interface KindScene {
  stage: Stage;
  /** A spec whose platform name is `name`. */
  spec(name: string): Record<string, unknown>;
  /** Makes a resource named `name` directly on the platform (another owner); its id. */
  foreign(name: string): Promise<string>;
  /** The resources whose platform name is `name` (a provisional name is another name). */
  named(name: string): Promise<Found[]>;
  /** Every resource of the kind in its scope (to count what a pass made). */
  all(): Promise<Found[]>;
  /** Deletes the resource `id` directly on the platform (behind the operator's back). */
  remove(id: string): Promise<void>;
}

let seq = 0;

/** A fresh pull zone with a shield zone on `planType` (2: Business, rules allowed). */
async function shieldZone(w: World, planType: 0 | 1 | 2 | 3): Promise<number> {
  const pz = await w.client.addPullZone({
    Name: `kit-shield-${process.pid}-${++seq}`,
    OriginUrl: 'https://o.example.com',
  });
  const seeded = await w.client.createShieldZone({ pullZoneId: Number(pz.Id), shieldZone: {} });
  const zone = Number(seeded.shieldZoneId);
  await w.client.updateShieldZone({ shieldZoneId: zone, shieldZone: { planType } });
  return zone;
}

const registry: KindFixture = {
  kind: 'ContainerRegistry',
  names: 'shared',
  idField: 'registryId',
  createRoute: 'POST /mc/registries',
  deleteRoute: 'DELETE /mc/registries/{registryId}',
  prepare(w) {
    const all = async (): Promise<Found[]> =>
      (await w.client.listRegistries())
        .filter((r) => r.isPlatformManaged !== true)
        .map((r) => ({ id: String(r.id), name: String(r.displayName) }));
    return Promise.resolve({
      stage: {
        kind: 'ContainerRegistry',
        secrets: { 'reg-pass': { password: 'registry-password-1' } },
      },
      spec: (name) => ({
        name: name,
        type: 'GitHub',
        username: 'bot',
        passwordSecretRef: { name: 'reg-pass', key: 'password' },
      }),
      foreign: async (name) =>
        String(
          await w.client.addRegistry({
            displayName: name,
            type: 'gitHub',
            passwordCredentials: { userName: 'them', password: 'their-password' },
          }),
        ),
      named: async (name) => (await all()).filter((r) => r.name === name),
      all,
      remove: (id) => w.client.deleteRegistry(Number(id)).then(() => undefined),
    });
  },
};

const APP_TEMPLATE = {
  name: 'web',
  imageName: 'nginx',
  imageNamespace: 'library',
  imageTag: '1.27',
  imageRegistryId: 'dockerhub',
};

const app: KindFixture = {
  kind: 'ContainerApp',
  names: 'shared',
  idField: 'appId',
  createRoute: 'POST /mc/apps',
  deleteRoute: 'DELETE /mc/apps/{appId}',
  prepare(w) {
    const all = async (): Promise<Found[]> =>
      (await w.client.listApps()).map((a) => ({ id: String(a.id), name: String(a.name) }));
    return Promise.resolve({
      stage: { kind: 'ContainerApp' },
      spec: (name) => ({
        name,
        autoScaling: { min: 1, max: 1 },
        containerTemplates: [APP_TEMPLATE],
      }),
      foreign: async (name) =>
        (
          await w.client.createApp({
            name,
            runtimeType: 'shared',
            autoScaling: { min: 1, max: 1 },
            regionSettings: { requiredRegionIds: ['DE'] },
            containerTemplates: [{ ...APP_TEMPLATE, imagePullPolicy: 'always' }],
          } as never)
        ).id,
      named: async (name) => (await all()).filter((a) => a.name === name),
      all,
      remove: (id) => w.client.deleteApp(id),
    });
  },
};

/** A shield rule family's fixture (the rules of one fresh zone). */
function ruleKind(kind: string, spec: Record<string, unknown>, prefix: string): KindFixture {
  return {
    kind,
    names: 'shared',
    idField: 'ruleId',
    createRoute: `POST ${prefix}`,
    deleteRoute: `DELETE ${prefix}/{id}`,
    async prepare(w) {
      const zone = await shieldZone(w, 2);
      const waf = kind === 'ShieldWafRule';
      const list = async (): Promise<Found[]> =>
        (waf ? await w.client.listCustomWafRules(zone) : await w.client.listRateLimits(zone)).map(
          (r) => ({ id: String(r.id), name: String(r.ruleName) }),
        );
      return {
        stage: { kind },
        spec: (name) => ({ ...spec, shieldZoneId: zone, name }),
        foreign: async (name) => {
          const body = {
            shieldZoneId: zone,
            ruleName: name,
            ruleConfiguration: waf
              ? {
                  actionType: 1,
                  variableTypes: { REQUEST_URI: '' },
                  operatorType: 0,
                  value: '/theirs',
                }
              : {
                  actionType: 1,
                  variableTypes: { REQUEST_URI: '' },
                  operatorType: 0,
                  value: '/theirs',
                  requestCount: 10,
                  timeframe: 60,
                  blockTime: 300,
                },
          };
          const made = waf
            ? await w.client.createCustomWafRule(body as never)
            : await w.client.createRateLimit(body as never);
          return String(made.id);
        },
        named: async (name) => (await list()).filter((r) => r.name === name),
        all: list,
        remove: (id) =>
          waf ? w.client.deleteCustomWafRule(Number(id)) : w.client.deleteRateLimit(Number(id)),
      };
    },
  };
}

const accessList: KindFixture = {
  kind: 'ShieldAccessList',
  names: 'shared',
  idField: 'listId',
  createRoute: 'POST /shield/shield-zone/{shieldZoneId}/access-lists',
  deleteRoute: 'DELETE /shield/shield-zone/{shieldZoneId}/access-lists/{id}',
  async prepare(w) {
    const zone = await shieldZone(w, 2);
    const all = async (): Promise<Found[]> =>
      ((await w.client.listAccessLists(zone)).customLists ?? []).map((l) => ({
        id: String(l.listId),
        name: String(l.name),
      }));
    return {
      stage: { kind: 'ShieldAccessList' },
      spec: (name) => ({
        type: 'IP',
        entries: ['192.0.2.1'],
        action: 'Block',
        shieldZoneId: zone,
        name,
      }),
      foreign: async (name) =>
        String(
          (await w.client.createCustomAccessList(zone, { name, type: 0, content: '198.51.100.7' }))
            .id,
        ),
      named: async (name) => (await all()).filter((l) => l.name === name),
      all,
      remove: (id) => w.client.deleteCustomAccessList(zone, Number(id)),
    };
  },
};

const record: KindFixture = {
  kind: 'DnsRecord',
  names: 'shared',
  idField: 'recordId',
  createRoute: 'PUT /dnszone/{zoneId}/records',
  deleteRoute: 'DELETE /dnszone/{zoneId}/records/{id}',
  async prepare(w) {
    const zone = Number(
      (await w.client.addDnsZone({ Domain: `kit-${process.pid}-${++seq}.example.org` })).Id,
    );
    const all = async (): Promise<Found[]> =>
      ((await w.client.getDnsZone(zone)).Records ?? [])
        .filter((r) => r.Type === 3)
        .map((r) => ({ id: String(r.Id), name: `${r.Name}=${r.Value}` }));
    return {
      stage: { kind: 'DnsRecord' },
      // A record's "name" here is its content: the TXT record `name` with value `v`.
      spec: (name) => ({ dnsZoneId: zone, type: 'TXT', name, value: 'v' }),
      foreign: async (name) =>
        String((await w.client.addDnsRecord(zone, { Type: 3, Name: name, Value: 'v' })).Id),
      named: async (name) => (await all()).filter((r) => r.name === `${name}=v`),
      all,
      remove: (id) => w.client.deleteDnsRecord(zone, Number(id)),
    };
  },
};

const pullZone: KindFixture = {
  kind: 'PullZoneConfig',
  names: 'unique',
  idField: 'pullZoneId',
  createRoute: 'POST /pullzone',
  deleteRoute: 'DELETE /pullzone/{id}',
  prepare(w) {
    const all = async (): Promise<Found[]> =>
      (await w.client.listPullZones()).map((z) => ({ id: String(z.Id), name: String(z.Name) }));
    return Promise.resolve({
      stage: { kind: 'PullZoneConfig' },
      spec: (name) => ({ name, settings: { originUrl: 'https://o.example.com' } }),
      foreign: async (name) =>
        String((await w.client.addPullZone({ Name: name, OriginUrl: 'https://o.example.com' })).Id),
      named: async (name) => (await all()).filter((z) => z.name === name),
      all,
      remove: (id) => w.client.deletePullZone(Number(id)),
    });
  },
};

const storageZone: KindFixture = {
  kind: 'StorageZone',
  names: 'unique',
  idField: 'storageZoneId',
  createRoute: 'POST /storagezone',
  deleteRoute: 'DELETE /storagezone/{id}',
  prepare(w) {
    const all = async (): Promise<Found[]> =>
      (await w.client.listStorageZones())
        .filter((z) => z.Deleted !== true)
        .map((z) => ({ id: String(z.Id), name: String(z.Name) }));
    return Promise.resolve({
      stage: { kind: 'StorageZone' },
      spec: (name) => ({ name, region: 'DE' }),
      foreign: async (name) =>
        String((await w.client.addStorageZone({ Name: name, Region: 'DE' })).Id),
      named: async (name) => (await all()).filter((z) => z.name === name),
      all,
      remove: (id) => w.client.deleteStorageZone(Number(id), false),
    });
  },
};

const dnsZone: KindFixture = {
  kind: 'DnsZone',
  names: 'unique',
  idField: 'dnsZoneId',
  createRoute: 'POST /dnszone',
  deleteRoute: 'DELETE /dnszone/{id}',
  prepare(w) {
    const domain = (name: string): string => `${name}.example.net`;
    const all = async (): Promise<Found[]> =>
      (await w.client.listDnsZones()).map((z) => ({ id: String(z.Id), name: String(z.Domain) }));
    return Promise.resolve({
      stage: { kind: 'DnsZone' },
      spec: (name) => ({ domain: domain(name) }),
      foreign: async (name) => String((await w.client.addDnsZone({ Domain: domain(name) })).Id),
      named: async (name) => (await all()).filter((z) => z.name === domain(name)),
      all,
      remove: (id) => w.client.deleteDnsZone(Number(id)),
    });
  },
};

/** The test's Gadget, on the gadget routes the world installs (names are not unique). */
const gadget: KindFixture = {
  kind: 'Gadget',
  names: 'shared',
  idField: 'gadgetId',
  createRoute: 'POST /gadgets',
  deleteRoute: 'DELETE /gadgets/{id}',
  prepare(w) {
    const gadgets = gadgetsOf(w.client);
    const all = async (): Promise<Found[]> =>
      (await gadgets.list()).map((g) => ({ id: String(g.id), name: g.name }));
    return Promise.resolve({
      stage: { kind: 'Gadget' },
      spec: (name) => ({ name, size: 2 }),
      foreign: async (name) => String((await gadgets.create({ name, size: 9 })).id),
      named: async (name) => (await all()).filter((g) => g.name === name),
      all,
      remove: (id) => gadgets.remove(id),
    });
  },
};

/** Every kind the identity rules cover, in the list's order, then the test's Gadget. */
const edgeScript: KindFixture = {
  kind: 'EdgeScript',
  names: 'shared',
  idField: 'scriptId',
  createRoute: 'POST /compute/script',
  deleteRoute: 'DELETE /compute/script/{id}',
  prepare(w) {
    const all = async (): Promise<Found[]> =>
      (await w.client.listEdgeScripts({ type: [1, 2] }))
        .filter((s) => s.Deleted !== true)
        .map((s) => ({ id: String(s.Id), name: String(s.Name) }));
    return Promise.resolve({
      stage: { kind: 'EdgeScript' },
      spec: (name) => ({
        name,
        scriptType: 'Middleware',
        code: { inline: 'export default () => 1;' },
      }),
      foreign: async (name) =>
        String((await w.client.addEdgeScript({ Name: name, ScriptType: 2 })).Id),
      named: async (name) => (await all()).filter((s) => s.name === name),
      all,
      remove: (id) => w.client.deleteEdgeScript(Number(id)),
    });
  },
};

const videoLibrary: KindFixture = {
  kind: 'VideoLibrary',
  names: 'shared',
  idField: 'libraryId',
  createRoute: 'POST /videolibrary',
  deleteRoute: 'DELETE /videolibrary/{id}',
  prepare(w) {
    const all = async (): Promise<Found[]> =>
      (await w.client.listVideoLibraries()).map((l) => ({
        id: String(l.Id),
        name: String(l.Name),
      }));
    return Promise.resolve({
      stage: { kind: 'VideoLibrary' },
      spec: (name) => ({ name, player: { keyColor: '#123456' } }),
      foreign: async (name) => String((await w.client.addVideoLibrary({ Name: name })).Id),
      named: async (name) => (await all()).filter((l) => l.name === name),
      all,
      remove: (id) => w.client.deleteVideoLibrary(Number(id)),
    });
  },
};

export const FIXTURES: readonly KindFixture[] = [
  pullZone,
  ruleKind('ShieldWafRule', WAF_SPEC, '/shield/waf/custom-rule'),
  ruleKind('ShieldRateLimit', RATE_SPEC, '/shield/rate-limit'),
  accessList,
  registry,
  app,
  storageZone,
  dnsZone,
  record,
  edgeScript,
  videoLibrary,
  gadget,
];
