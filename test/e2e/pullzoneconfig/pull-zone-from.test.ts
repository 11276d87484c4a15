/**
 * `spec.pullZoneFrom` (issue 48) on a real apiserver with the real operator and cdn-sim, in two
 * tenant namespaces: the pull zones the platform made for team-a's accelerated DnsRecord,
 * ContainerApp endpoint and standalone EdgeScript are each managed by a PullZoneConfig that
 * links its owner (a hostname and an edge rule land on the zone, `status.linkedFrom` names the
 * owner); no PullZoneConfig sends `POST /pullzone` or `DELETE /pullzone/{id}`; a second link to
 * one zone is refused `AlreadyManaged`; team-b's link to a name only team-a has waits; deleting
 * the owner makes the link `LinkedZoneGone`; deleting the PullZoneConfigs leaves every zone. The
 * apiserver refuses what the link forbids (CEL), and the link is immutable.
 */
import test from 'ava';
import { apply, deleteObject, getObject, kubectlRaw } from '../support/kube.js';
import {
  objectYaml,
  PZC,
  resetCalls,
  resourceOf,
  settle,
  simWrites,
  startTenancyEnv,
  waitCondition,
  waitGone,
  type TenancyEnv,
} from '../tenancy/setup.js';
import { teamAMadeZones } from '../tenancy/team-a.js';

let env: TenancyEnv;

test.before(async () => {
  env = await startTenancyEnv();
});

test.after.always(async () => {
  await env?.stop();
});

const SCRIPT_CODE = 'export default () => new Response("site");';

/** The linking spec of `from`, with one hostname and one edge rule. */
function linkSpec(from: Record<string, string>, host: string): Record<string, unknown> {
  return {
    pullZoneFrom: from,
    hostnames: [{ hostname: host }],
    edgeRules: [
      {
        name: 'block-admin',
        action: { type: 'BlockRequest' },
        triggers: [{ type: 'Url', patternMatches: ['*/admin/*'] }],
      },
    ],
  };
}

/** A standalone script made outside Kubernetes with its own pull zone, adopted by team-a. */
async function adoptedScript(name: string): Promise<void> {
  const made = await env.cdn.addEdgeScript({
    Name: name,
    ScriptType: 1,
    Code: SCRIPT_CODE,
    CreateLinkedPullZone: true,
  });
  await apply(
    objectYaml('EdgeScript', env.teamA, name, {
      scriptType: 'Standalone',
      code: { inline: SCRIPT_CODE },
      adoption: { policy: 'ById', id: made.Id },
    }),
  );
}

/** Team-a's owners of platform-made zones, Ready; the link of each and its zone id. */
async function owners(): Promise<
  Array<{ what: string; from: Record<string, string>; id: number }>
> {
  const made = await teamAMadeZones(env, 'e2e-link-a.example');
  await adoptedScript('site');
  await apply(objectYaml('VideoLibrary', env.teamA, 'videos', {}));
  const es = await waitCondition(resourceOf('EdgeScript'), env.teamA, 'site', 'Ready', 'True');
  const lib = await waitCondition(resourceOf('VideoLibrary'), env.teamA, 'videos', 'Ready', 'True');
  return [
    { what: 'record', from: { kind: 'DnsRecord', name: 'fast' }, id: made.record },
    {
      what: 'app',
      from: { kind: 'ContainerApp', name: 'edge', endpoint: 'public' },
      id: made.app,
    },
    {
      what: 'script',
      from: { kind: 'EdgeScript', name: 'site' },
      id: Number(es.status?.pullZoneId),
    },
    {
      what: 'library',
      from: { kind: 'VideoLibrary', name: 'videos' },
      id: Number(lib.status?.pullZoneId),
    },
  ];
}

/** `POST /pullzone` and `DELETE /pullzone/{id}` logged since the last reset. */
async function zoneCreatesAndDeletes(): Promise<string[]> {
  return (await simWrites(env.sim))
    .filter(
      (c) =>
        (c.method === 'POST' && c.path === '/pullzone') ||
        (c.method === 'DELETE' && /^\/pullzone\/\d+$/.test(c.path)),
    )
    .map((c) => `${c.method} ${c.path}`);
}

test.serial('the apiserver refuses what pullZoneFrom forbids; the link is immutable', async (t) => {
  const from = { kind: 'EdgeScript', name: 'site' };
  const refused: Array<{ why: string; spec: Record<string, unknown>; error: RegExp }> = [
    {
      why: 'a ContainerApp without its endpoint',
      spec: { pullZoneFrom: { kind: 'ContainerApp', name: 'edge' } },
      error: /pullZoneFrom\.endpoint is required with kind ContainerApp/,
    },
    {
      why: 'an endpoint on another kind',
      spec: { pullZoneFrom: { kind: 'DnsRecord', name: 'fast', endpoint: 'public' } },
      error: /pullZoneFrom\.endpoint is set only with kind ContainerApp/,
    },
    {
      why: 'a kind that brings no zone',
      spec: { pullZoneFrom: { kind: 'StorageZone', name: 'files' } },
      error: /pullZoneFrom\.kind: Unsupported value/,
    },
    {
      why: 'a namespace (an object of another namespace cannot be named)',
      spec: { pullZoneFrom: { ...from, namespace: env.teamB } },
      error: /unknown field "spec\.pullZoneFrom\.namespace"/,
    },
    {
      why: 'adoption beside it',
      spec: { pullZoneFrom: from, adoption: { policy: 'ById', id: 5 } },
      error: /leave adoption out/,
    },
    {
      why: 'deletionPolicy Delete',
      spec: { pullZoneFrom: from, deletionPolicy: 'Delete' },
      error: /deletionPolicy Delete is refused/,
    },
    {
      why: 'a zone name',
      spec: { pullZoneFrom: from, name: 'renamed' },
      error: /leave name out/,
    },
    {
      why: 'an origin setting the owner fixes',
      spec: { pullZoneFrom: from, settings: { originUrl: 'https://evil.example.com' } },
      error: /the owner sets the zone's origin/,
    },
    {
      why: 'an origin reference',
      spec: { pullZoneFrom: from, storageZoneRef: { name: 'files' } },
      error: /the owner sets the zone's origin/,
    },
  ];
  for (const c of refused) {
    const out = await kubectlRaw(
      ['apply', '-f', '-'],
      objectYaml('PullZoneConfig', env.teamA, 'cel', c.spec),
    );
    t.not(out.code, 0, `${c.why}: refused`);
    t.regex(out.stderr, c.error, c.why);
  }
  // A dotted metadata.name is fine: the zone's name is its owner's.
  await apply(objectYaml('PullZoneConfig', env.teamA, 'cel.example.com', { pullZoneFrom: from }));
  const changes = [
    { why: 'another owner', spec: { pullZoneFrom: { kind: 'EdgeScript', name: 'other' } } },
    { why: 'the link removed', spec: { settings: { originUrl: 'https://o.example.com' } } },
  ];
  for (const c of changes) {
    const out = await kubectlRaw(
      ['apply', '-f', '-'],
      objectYaml('PullZoneConfig', env.teamA, 'cel.example.com', c.spec),
    );
    t.regex(out.stderr, /pullZoneFrom is immutable/, c.why);
  }
  const plain = objectYaml('PullZoneConfig', env.teamA, 'plain', {
    settings: { originUrl: 'https://o.example.com' },
    deletionPolicy: 'Orphan',
  });
  await kubectlRaw(['create', '-f', '-'], plain);
  const added = await kubectlRaw(
    ['apply', '-f', '-'],
    objectYaml('PullZoneConfig', env.teamA, 'plain', {
      pullZoneFrom: from,
      deletionPolicy: 'Orphan',
    }),
  );
  t.regex(added.stderr, /pullZoneFrom is immutable/, 'the link added');
  for (const name of ['cel.example.com', 'plain']) await deleteObject(PZC, env.teamA, name);
});

test.serial(
  'platform-made zones managed through pullZoneFrom: no zone created or deleted, one PullZoneConfig per zone',
  async (t) => {
    t.timeout(6 * 60_000);
    const zones = await owners();
    t.true(
      zones.every((z) => Number.isSafeInteger(z.id) && z.id > 0),
      JSON.stringify(zones),
    );
    await settle(1000);
    await resetCalls(env.sim);
    for (const z of zones)
      await apply(
        objectYaml(
          'PullZoneConfig',
          env.teamA,
          `${z.what}-zone`,
          linkSpec(z.from, `${z.what}.e2e-link.example`),
        ),
      );
    for (const z of zones) {
      const obj = await waitCondition(PZC, env.teamA, `${z.what}-zone`, 'Ready', 'True');
      t.is(obj.status?.pullZoneId, z.id, `${z.what}: the owner's zone`);
      t.like(obj.status?.linkedFrom, z.from, `${z.what}: status names the owner`);
      const zone = await env.cdn.getPullZone(z.id);
      t.true(
        (zone.Hostnames ?? []).some((h) => h.Value === `${z.what}.e2e-link.example`),
        `${z.what}: hostname added`,
      );
      t.is(zone.EdgeRules?.length, 1, `${z.what}: edge rule added`);
    }

    // A second link to the record's zone is refused; team-b's link finds nothing of team-a's.
    await apply(
      objectYaml('PullZoneConfig', env.teamA, 'record-again', { pullZoneFrom: zones[0]!.from }),
    );
    const again = await waitCondition(
      PZC,
      env.teamA,
      'record-again',
      'Synced',
      'False',
      'AlreadyManaged',
    );
    t.regex(
      JSON.stringify(again.status?.conditions),
      new RegExp(`PullZoneConfig ${env.teamA}/record-zone`),
    );
    await apply(
      objectYaml('PullZoneConfig', env.teamB, 'stolen', { pullZoneFrom: zones[0]!.from }),
    );
    const stolen = await waitCondition(
      PZC,
      env.teamB,
      'stolen',
      'Ready',
      'False',
      'ReferenceNotReady',
    );
    t.regex(
      JSON.stringify(stolen.status?.conditions),
      new RegExp(`DnsRecord ${env.teamB}/fast was not found`),
    );
    t.is(stolen.status?.pullZoneId, undefined);

    // The script's owner deleted (its zone stays on the platform: deleteLinkedPullZones=false).
    await deleteObject(resourceOf('EdgeScript'), env.teamA, 'site');
    await waitGone(resourceOf('EdgeScript'), env.teamA, 'site');
    const gone = await waitCondition(
      PZC,
      env.teamA,
      'script-zone',
      'Synced',
      'False',
      'LinkedZoneGone',
    );
    t.regex(JSON.stringify(gone.status?.conditions), /EdgeScript [\w-]+\/site was not found/);

    for (const name of ['record-zone', 'app-zone', 'script-zone', 'library-zone', 'record-again'])
      await deleteObject(PZC, env.teamA, name);
    await deleteObject(PZC, env.teamB, 'stolen');
    for (const name of ['record-zone', 'app-zone', 'script-zone', 'library-zone', 'record-again'])
      await waitGone(PZC, env.teamA, name);
    await settle(1500);
    t.deepEqual(await zoneCreatesAndDeletes(), [], 'no POST /pullzone, no DELETE /pullzone/{id}');
    for (const z of zones)
      t.true(env.sim.state.pullZones.has(z.id), `${z.what}: zone left in place`);
    t.truthy(await getObject(resourceOf('DnsRecord'), env.teamA, 'fast'), 'the owners stay');
    const rejected = env.sim.calls.snapshot().rejectedByDocument;
    t.is(rejected.count, 0, JSON.stringify(rejected.log));
  },
);
