/**
 * Issue 27 item 3 on a real apiserver: a second namespace's StorageZone or PullZoneConfig that
 * asks to adopt another team's resource by name is refused (AlreadyManaged) and gets no
 * Secret — not the storage zone's passwords, not the pull zone's outputs (zoneSecurityKey).
 */
import test from 'ava';
import { apply, conditionOf, getObject, kubectlRaw } from '../support/kube.js';
import { settle, startTenancyEnv, waitCondition, type TenancyEnv, PZC } from './setup.js';
import { apiVersionOfKind } from '../../../src/controllers/kinds.js';

const SZ = 'storagezones.storage.cdn.operator.io';

let env: TenancyEnv;

test.before(async () => {
  env = await startTenancyEnv();
});

test.after.always(async () => {
  for (const ns of [env?.teamA, env?.teamB]) {
    if (!ns) continue;
    await kubectlRaw(['delete', `${PZC},${SZ}`, '--all', '-n', ns, '--wait=false']);
  }
  await env?.stop();
});

function objectJson(
  kind: 'StorageZone' | 'PullZoneConfig',
  ns: string,
  name: string,
  spec: Record<string, unknown>,
): string {
  return JSON.stringify({
    apiVersion: apiVersionOfKind(kind),
    kind,
    metadata: { name, namespace: ns },
    spec,
  });
}

test.serial('a refused ByName StorageZone adopter gets no password Secret', async (t) => {
  const { teamA, teamB } = env;
  const zoneName = `${teamA}-files`;
  await apply(objectJson('StorageZone', teamA, 'files', { name: zoneName, region: 'DE' }));
  await waitCondition(SZ, teamA, 'files', 'OutputsReady', 'True', 'OutputsWritten');
  t.truthy(await getObject('secret', teamA, 'files-storagezone'), "the owner's Secret exists");

  await apply(
    objectJson('StorageZone', teamB, 'steal', {
      name: zoneName,
      adoption: { policy: 'ByName' },
    }),
  );
  const refused = await waitCondition(SZ, teamB, 'steal', 'Synced', 'False', 'AlreadyManaged');
  t.regex(conditionOf(refused, 'Synced')?.message ?? '', new RegExp(`${teamA}/files`));
  await settle(3_000); // a retry or two
  t.is(await getObject('secret', teamB, 'steal-storagezone'), undefined, 'no Secret written');
  t.is(conditionOf(await getObject(SZ, teamB, 'steal'), 'OutputsReady'), undefined);
});

test.serial('a refused ByName PullZoneConfig adopter gets no outputs Secret', async (t) => {
  const { teamA, teamB } = env;
  const zoneName = `${teamA}-site`;
  await apply(
    objectJson('PullZoneConfig', teamA, 'site', {
      name: zoneName,
      settings: { originUrl: 'https://a.example.com' },
      outputSecretRef: { name: 'site-out' },
    }),
  );
  await waitCondition(PZC, teamA, 'site', 'OutputsReady', 'True', 'OutputsWritten');

  await apply(
    objectJson('PullZoneConfig', teamB, 'steal', {
      name: zoneName,
      adoption: { policy: 'ByName' },
      outputSecretRef: { name: 'stolen-out' },
    }),
  );
  await waitCondition(PZC, teamB, 'steal', 'Synced', 'False', 'AlreadyManaged');
  await settle(3_000);
  t.is(await getObject('secret', teamB, 'stolen-out'), undefined, 'no outputs Secret written');
});
