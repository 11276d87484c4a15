/**
 * Raw ids are references (issue 28, item 6), on a real apiserver with the real operator and
 * cdn-sim: a spec in team-b that names by id a storage zone or pull zone team-a manages is
 * refused with Synced=False ReferenceNotAllowed (field, id and owner namespace in the
 * message) and nothing reaches the platform for it. Before, `settings.storageZoneId` let
 * team-b serve team-a's files on its own hostname, and the perma-cache, log and edge rule
 * origin ids made the platform write into team-a's zone. The same ids in team-a are allowed.
 */
import test from 'ava';
import { apply } from '../support/kube.js';
import { secretYaml } from '../support/operator-env.js';
import {
  appSpec,
  CAPP,
  PZC,
  resetCalls,
  resourceOf,
  settle,
  SHP,
  simWrites,
  startTenancyEnv,
  waitCondition,
  type TenancyEnv,
} from './setup.js';
import { apiVersionOfKind } from '../../../src/controllers/kinds.js';

const SZ = 'storagezones.storage.cdn.operator.io';

let env: TenancyEnv;

test.before(async () => {
  env = await startTenancyEnv();
});

test.after.always(async () => {
  await env?.stop();
});

function manifest(kind: string, ns: string, name: string, spec: Record<string, unknown>): string {
  return JSON.stringify({
    apiVersion: apiVersionOfKind(kind),
    kind,
    metadata: { name, namespace: ns },
    spec,
  });
}

/** Team-a's resources' ids. */
interface TeamAIds {
  storageZoneId: number;
  pullZoneId: number;
  registryId: number;
}

/** Team-a's storage zone, pull zone and container registry, all Ready; returns their ids. */
async function teamAResources(): Promise<TeamAIds> {
  const { teamA } = env;
  await apply(manifest('StorageZone', teamA, 'files', { name: 'e2e-ten-files', region: 'DE' }));
  await apply(
    manifest('PullZoneConfig', teamA, 'site', { settings: { originUrl: 'https://a.example.com' } }),
  );
  await apply(secretYaml(teamA, 'registry-pass', { password: 'team-a-registry-password' }));
  await apply(
    manifest('ContainerRegistry', teamA, 'registry', {
      name: 'e2e-ten-registry',
      type: 'GitHub',
      username: 'bot',
      passwordSecretRef: { name: 'registry-pass', key: 'password' },
    }),
  );
  const sz = await waitCondition(SZ, teamA, 'files', 'Ready', 'True');
  const pz = await waitCondition(PZC, teamA, 'site', 'Ready', 'True');
  const reg = await waitCondition(
    resourceOf('ContainerRegistry'),
    teamA,
    'registry',
    'Ready',
    'True',
  );
  return {
    storageZoneId: Number(sz.status?.storageZoneId),
    pullZoneId: Number(pz.status?.pullZoneId),
    registryId: Number(reg.status?.registryId),
  };
}

let ids: TeamAIds | undefined;
async function resources(): Promise<TeamAIds> {
  ids ??= await teamAResources();
  return ids;
}

test.serial(
  "team-b cannot name team-a's storage zone by id: origin, perma cache, logs, edge rule origin",
  async (t) => {
    const { teamA, teamB } = env;
    const { storageZoneId: id } = await resources();
    await settle(1000);
    await resetCalls(env.sim);
    const cases: Array<{ name: string; field: string; spec: Record<string, unknown> }> = [
      {
        name: 'thief-origin',
        field: 'spec.settings.storageZoneId',
        spec: { settings: { originType: 'StorageZone', storageZoneId: id } },
      },
      {
        name: 'thief-cache',
        field: 'spec.settings.permaCacheStorageZoneId',
        spec: { settings: { originUrl: 'https://b.example.com', permaCacheStorageZoneId: id } },
      },
      {
        name: 'thief-logs',
        field: 'spec.settings.loggingStorageZoneId',
        spec: { settings: { originUrl: 'https://b.example.com', loggingStorageZoneId: id } },
      },
      {
        name: 'thief-rule',
        field: 'spec.edgeRules[files].action.parameter1',
        spec: {
          settings: { originUrl: 'https://b.example.com' },
          edgeRules: [
            {
              name: 'files',
              action: { type: 'OriginStorage', parameter1: String(id) },
              triggers: [{ type: 'Url', patternMatches: ['*/files/*'] }],
            },
          ],
        },
      },
    ];
    for (const c of cases) await apply(manifest('PullZoneConfig', teamB, c.name, c.spec));
    for (const c of cases) {
      const obj = await waitCondition(PZC, teamB, c.name, 'Synced', 'False', 'ReferenceNotAllowed');
      const msg = JSON.stringify(obj.status?.conditions);
      t.true(msg.includes(c.field), `${c.name}: names the field (${msg})`);
      t.true(msg.includes(String(id)), `${c.name}: names the id`);
      t.true(msg.includes(`namespace ${teamA}`), `${c.name}: names the owner namespace`);
      t.is(obj.status?.pullZoneId, undefined, `${c.name}: no zone was created`);
    }
    await settle(2000);
    t.deepEqual(await simWrites(env.sim), [], 'no platform write for any of them');
  },
);

test.serial(
  "team-b cannot put a shield on, or route an app through, team-a's pull zone by id",
  async (t) => {
    const { teamA, teamB } = env;
    const { pullZoneId: id } = await resources();
    await settle(1000);
    await resetCalls(env.sim);
    await apply(
      manifest('ShieldPolicy', teamB, 'hijack', { pullZoneId: id, waf: { enabled: true } }),
    );
    await apply(
      manifest(
        'ContainerApp',
        teamB,
        'hijack',
        appSpec(
          'hijack',
          {},
          {
            endpoints: [
              {
                displayName: 'cdn',
                cdn: { pullZoneId: id, portMappings: [{ containerPort: 80 }] },
              },
            ],
          },
        ),
      ),
    );
    const shield = await waitCondition(
      SHP,
      teamB,
      'hijack',
      'Synced',
      'False',
      'ReferenceNotAllowed',
    );
    t.true(JSON.stringify(shield.status?.conditions).includes('spec.pullZoneId'));
    t.true(JSON.stringify(shield.status?.conditions).includes(`namespace ${teamA}`));
    const app = await waitCondition(
      CAPP,
      teamB,
      'hijack',
      'Synced',
      'False',
      'ReferenceNotAllowed',
    );
    t.true(JSON.stringify(app.status?.conditions).includes('.cdn.pullZoneId'));
    await settle(2000);
    t.deepEqual(await simWrites(env.sim), [], 'no shield, app or zone write');
  },
);

test.serial('the same ids in the owner namespace are allowed', async (t) => {
  const { teamA } = env;
  const { storageZoneId, pullZoneId } = await resources();
  await apply(
    manifest('PullZoneConfig', teamA, 'own-logs', {
      settings: { originUrl: 'https://a2.example.com', loggingStorageZoneId: storageZoneId },
    }),
  );
  await apply(
    manifest('ShieldPolicy', teamA, 'own-shield', { pullZoneId, waf: { enabled: true } }),
  );
  await waitCondition(PZC, teamA, 'own-logs', 'Ready', 'True');
  await waitCondition(SHP, teamA, 'own-shield', 'Synced', 'True');
  t.pass();
});

test.serial(
  'another spelling of an id is refused at apply; the id itself is a reference (issue 44, item 4)',
  async (t) => {
    const { teamA, teamB } = env;
    const { registryId: reg, storageZoneId: sz } = await resources();
    await settle(1000);
    await resetCalls(env.sim);
    // Spellings a lenient parser reads as the same number (on 72f93ad none was a reference).
    const spell = (id: number): string[] => [
      `0${id}`,
      `+${id}`,
      ` ${id}`,
      `${id} `,
      `${id}.0`,
      `0x${id.toString(16)}`,
    ];
    const registry = (id: string): Record<string, unknown> =>
      appSpec('spelled', {}, { imageRegistryId: id });
    const origin = (id: string): Record<string, unknown> => ({
      settings: { originUrl: 'https://b.example.com' },
      edgeRules: [
        {
          name: 'files',
          action: { type: 'OriginStorage', parameter1: id },
          triggers: [{ type: 'Url', patternMatches: ['*/files/*'] }],
        },
      ],
    });
    const cases = [
      ...spell(reg).map((id) => ({
        kind: 'ContainerApp',
        field: 'imageRegistryId',
        id,
        spec: registry(id),
      })),
      ...[`0${sz}`].map((id) => ({
        kind: 'PullZoneConfig',
        field: 'parameter1',
        id,
        spec: origin(id),
      })),
      {
        kind: 'ContainerApp',
        field: 'adoption.id',
        id: ' app',
        spec: appSpec('spelled', { adoption: { policy: 'ById', id: ' app' } }),
      },
      {
        kind: 'PullZoneConfig',
        field: 'magicContainersAppId',
        id: 'app ',
        spec: { settings: { originUrl: 'https://b.example.com', magicContainersAppId: 'app ' } },
      },
    ];
    const outcome = [];
    for (const [i, c] of cases.entries()) {
      const verdict = await apply(manifest(c.kind, teamB, `spelled-${i}`, c.spec)).then(
        () => 'accepted',
        (err: Error) => (err.message.includes(c.field) ? 'refused' : err.message),
      );
      outcome.push({ case: `${c.kind} ${c.field} ${JSON.stringify(c.id)}`, verdict });
    }
    t.deepEqual(
      outcome,
      outcome.map((o) => ({ ...o, verdict: 'refused' })),
      'the apiserver refuses every other spelling',
    );
    // The id's one spelling in team-b is a reference to team-a's registry: refused, nothing sent.
    await apply(manifest('ContainerApp', teamB, 'spelled', registry(String(reg))));
    const app = await waitCondition(
      CAPP,
      teamB,
      'spelled',
      'Synced',
      'False',
      'ReferenceNotAllowed',
    );
    t.true(JSON.stringify(app.status?.conditions).includes(`namespace ${teamA}`));
    await settle(2000);
    t.deepEqual(await simWrites(env.sim), [], 'nothing sent for any of them');
  },
);
