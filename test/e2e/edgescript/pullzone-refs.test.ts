/**
 * PullZoneConfig references to EdgeScripts (issue 46), on a real apiserver with the real
 * operator and cdn-sim, in two tenant namespaces: a pull zone waits (ReferenceNotReady) for
 * its middleware script, then runs it by ref (the platform's zone shows `MiddlewareScriptId`);
 * a RunEdgeScript edge rule names its script by ref (the rule's parameter is the script id); a
 * Standalone script as middleware is refused; team-b naming team-a's script by raw id
 * (`settings.middlewareScriptId`, a RunEdgeScript `parameter1`) is refused with
 * `ReferenceNotAllowed` and nothing reaches the platform; the apiserver refuses a ref set
 * together with its raw id; deleting the script leaves the pull zone waiting.
 */
import test from 'ava';
import { apply, deleteObject, getObject } from '../support/kube.js';
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

const ES = resourceOf('EdgeScript');

let env: TenancyEnv;

test.before(async () => {
  env = await startTenancyEnv();
});

test.after.always(async () => {
  await env?.stop();
});

function script(ns: string, name: string, scriptType: string): string {
  return objectYaml('EdgeScript', ns, name, {
    scriptType,
    code: { inline: `export default () => new Response(${JSON.stringify(name)});` },
  });
}

const ORIGIN = { originUrl: 'https://origin.example.com' };

function runRule(action: Record<string, unknown>): Record<string, unknown> {
  return { name: 'run', action, triggers: [{ type: 'Url', patternMatches: ['*/api/*'] }] };
}

/** Team-a's middleware script `mw`, Ready; its id. */
let mwId: number | undefined;
async function middleware(): Promise<number> {
  if (mwId !== undefined) return mwId;
  await apply(script(env.teamA, 'mw', 'Middleware'));
  const obj = await waitCondition(ES, env.teamA, 'mw', 'Ready', 'True');
  mwId = Number(obj.status?.scriptId);
  return mwId;
}

test.serial(
  'a middleware script by ref: the zone waits for it, then runs it (MiddlewareScriptId)',
  async (t) => {
    await apply(
      objectYaml('PullZoneConfig', env.teamA, 'front', {
        settings: ORIGIN,
        middlewareScriptRef: { name: 'mw' },
      }),
    );
    const waiting = await waitCondition(
      PZC,
      env.teamA,
      'front',
      'Ready',
      'False',
      'ReferenceNotReady',
    );
    t.regex(JSON.stringify(waiting.status?.conditions), /EdgeScript [\w-]+\/mw was not found/);
    t.is(waiting.status?.pullZoneId, undefined, 'no zone is created while the script is missing');

    const id = await middleware();
    const ready = await waitCondition(PZC, env.teamA, 'front', 'Ready', 'True');
    const zone = await env.cdn.getPullZone(Number(ready.status?.pullZoneId));
    t.is(zone.MiddlewareScriptId, id, 'the zone runs the script');
  },
);

test.serial('a RunEdgeScript edge rule by ref carries the script id', async (t) => {
  const id = await middleware();
  await apply(
    objectYaml('PullZoneConfig', env.teamA, 'rules', {
      settings: ORIGIN,
      edgeRules: [runRule({ type: 'RunEdgeScript', scriptRef: { name: 'mw' } })],
    }),
  );
  const ready = await waitCondition(PZC, env.teamA, 'rules', 'Ready', 'True');
  const zone = await env.cdn.getPullZone(Number(ready.status?.pullZoneId));
  const rule = zone.EdgeRules?.find((r) => r.ActionType === 21);
  t.is(rule?.ActionParameter1, String(id));
});

test.serial('a Standalone script as middleware is refused (InvalidSpec)', async (t) => {
  await apply(script(env.teamA, 'site', 'Standalone'));
  await waitCondition(ES, env.teamA, 'site', 'Ready', 'True');
  await apply(
    objectYaml('PullZoneConfig', env.teamA, 'wrong-type', {
      settings: ORIGIN,
      middlewareScriptRef: { name: 'site' },
    }),
  );
  const obj = await waitCondition(PZC, env.teamA, 'wrong-type', 'Synced', 'False', 'InvalidSpec');
  t.regex(JSON.stringify(obj.status?.conditions), /is a Standalone script/);
  t.is(obj.status?.pullZoneId, undefined);
});

test.serial(
  "team-b cannot attach team-a's script by raw id: ReferenceNotAllowed, nothing sent",
  async (t) => {
    const id = await middleware();
    await settle(1000);
    await resetCalls(env.sim);
    const cases = [
      {
        name: 'thief-mw',
        field: 'spec.settings.middlewareScriptId',
        spec: { settings: { ...ORIGIN, middlewareScriptId: id } },
      },
      {
        name: 'thief-rule',
        field: 'spec.edgeRules[run].action.parameter1',
        spec: {
          settings: ORIGIN,
          edgeRules: [runRule({ type: 'RunEdgeScript', parameter1: String(id) })],
        },
      },
    ];
    for (const c of cases) await apply(objectYaml('PullZoneConfig', env.teamB, c.name, c.spec));
    for (const c of cases) {
      const obj = await waitCondition(
        PZC,
        env.teamB,
        c.name,
        'Synced',
        'False',
        'ReferenceNotAllowed',
      );
      const msg = JSON.stringify(obj.status?.conditions);
      t.true(msg.includes(c.field), `${c.name}: names the field (${msg})`);
      t.true(msg.includes(`namespace ${env.teamA}`), `${c.name}: names the owner namespace`);
      t.is(obj.status?.pullZoneId, undefined, `${c.name}: no zone was created`);
    }
    await settle(2000);
    t.deepEqual(await simWrites(env.sim), [], 'no platform write for either');
  },
);

test.serial('the apiserver refuses a ref together with the raw id it stands for', async (t) => {
  const bad = [
    { middlewareScriptRef: { name: 'mw' }, settings: { ...ORIGIN, middlewareScriptId: 5 } },
    {
      settings: ORIGIN,
      edgeRules: [runRule({ type: 'RunEdgeScript', parameter1: '5', scriptRef: { name: 'mw' } })],
    },
    { settings: ORIGIN, edgeRules: [runRule({ type: 'RunEdgeScript' })] },
  ];
  for (const spec of bad) {
    await t.throwsAsync(
      () => apply(objectYaml('PullZoneConfig', env.teamA, 'both', spec)),
      { message: /middlewareScriptRef or settings\.middlewareScriptId|exactly one of parameter1/ },
      JSON.stringify(spec),
    );
  }
});

test.serial('deleting the script leaves the pull zone waiting; nothing rejected', async (t) => {
  const id = await middleware();
  const front = await getObject(PZC, env.teamA, 'front');
  await deleteObject(ES, env.teamA, 'mw');
  await waitGone(ES, env.teamA, 'mw');
  await waitCondition(PZC, env.teamA, 'front', 'Ready', 'False', 'ReferenceNotReady');
  const zone = await env.cdn.getPullZone(Number(front?.status?.pullZoneId));
  t.truthy(zone.Id, 'the pull zone stays');
  t.not(zone.MiddlewareScriptId, id, 'the platform detached the deleted script');
  const rejected = env.sim.calls.snapshot().rejectedByDocument;
  t.is(rejected.count, 0, JSON.stringify(rejected.log));
});
