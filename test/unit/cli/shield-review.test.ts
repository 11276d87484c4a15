/**
 * `cdnctl shield triggered` and `cdnctl shield review` against an in-process cdn-sim: the
 * table and the answer, the review on the platform, and `--print-patch`, whose command is
 * applied the way a shell would run it (the JSON is parsed back from the quoted argument).
 */
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { reviewPatch, topUrls } from '../../../src/cli/commands/shield-review.js';
import { startCliEnv, type CliEnv } from './cli-harness.js';

async function zoneWithTriggers(
  env: CliEnv,
  lists: { wafDisabledRules?: string[]; wafLogOnlyRules?: string[] } = {},
): Promise<{ zone: number; pullZone: number }> {
  const seeded = (await env.admin('POST', '/_sim/seed', {
    pullZones: [{ Name: 'review-cli' }],
  })) as {
    pullZones: number[];
  };
  const shield = (await env.admin('POST', '/_sim/seed', {
    shieldZones: [{ pullZoneId: seeded.pullZones[0], planType: 0, ...lists }],
  })) as { shieldZones: number[] };
  const zone = shield.shieldZones[0]!;
  await env.admin('PUT', `/_sim/shield-zones/${zone}/waf-rules/913100/metrics`, {
    totalTriggers: 4,
  });
  await env.admin('PUT', `/_sim/shield-zones/${zone}/waf-rules/930100/metrics`, {
    totalTriggers: 11,
  });
  return { zone, pullZone: seeded.pullZones[0]! };
}

async function assertNoRejections(
  t: { is: (a: unknown, b: unknown, m?: string) => void },
  env: CliEnv,
): Promise<void> {
  const calls = (await env.admin('GET', '/_sim/calls')) as {
    rejectedByDocument: { count: number; log: unknown[] };
  };
  t.is(calls.rejectedByDocument.count, 0, JSON.stringify(calls.rejectedByDocument.log));
}

test('shield triggered: a table by requests, and the answer with -o json', async (t) => {
  const env = await startCliEnv(t);
  const { zone } = await zoneWithTriggers(env);
  const table = await env.run(['shield', 'triggered', String(zone)]);
  t.is(table.code, 0, table.stderr);
  const lines = table.stdout.trimEnd().split('\n');
  t.regex(lines[0]!, /^RULE\s+REQUESTS\s+DESCRIPTION\s+TOP URLS$/);
  t.regex(lines[1]!, /^930100\s+11\s+Path traversal attack/);
  t.regex(lines[2]!, /^913100\s+4\s+Found User-Agent/);
  t.is(lines.length, 3);
  const json = await env.run(['shield', 'triggered', String(zone), '-o', 'json']);
  const answer = JSON.parse(json.stdout) as {
    totalTriggeredRules: number;
    triggeredRules: Array<{ ruleId: string }>;
  };
  t.is(answer.totalTriggeredRules, 2);
  t.deepEqual(answer.triggeredRules.map((r) => r.ruleId).sort(), ['913100', '930100']);
  const yaml = await env.run(['shield', 'triggered', String(zone), '-o', 'yaml']);
  t.regex(yaml.stdout, /^totalTriggeredRules: 2$/m);
  const bad = await env.run(['shield', 'triggered', 'abc']);
  t.is(bad.code, 2);
  await assertNoRejections(t, env);
});

test('shield review: LogOnly and DisableRule move the rule on the platform, Ignore only acknowledges', async (t) => {
  const env = await startCliEnv(t);
  const { zone, pullZone } = await zoneWithTriggers(env);
  const logOnly = await env.run(['shield', 'review', String(zone), '930100', 'logonly']);
  t.is(logOnly.code, 0, logOnly.stderr);
  t.is(logOnly.stdout, `Reviewed rule 930100 of shield zone ${zone}: LogOnly\n`);
  t.regex(logOnly.stderr, /ShieldPolicy manages spec\.waf\.logOnlyRules.*--print-patch POLICY/);
  const ignore = await env.run([
    'shield',
    'review',
    String(zone),
    '913100',
    'Ignore',
    '-o',
    'json',
  ]);
  t.is(ignore.code, 0, ignore.stderr);
  t.like(JSON.parse(ignore.stdout), { ok: true, ruleId: '913100', action: 'Ignore' });
  t.is(ignore.stderr, '');
  const listed = await env.run(['shield', 'triggered', String(zone), '-o', 'json']);
  t.is((JSON.parse(listed.stdout) as { totalTriggeredRules: number }).totalTriggeredRules, 0);
  const shown = await env.run(['shield', 'get', String(pullZone), '-o', 'json']);
  t.like(JSON.parse(shown.stdout), { wafLogOnlyRules: ['930100'], wafDisabledRules: [] });
  const disable = await env.run(['shield', 'review', String(zone), '930100', 'DisableRule']);
  t.is(disable.code, 0, disable.stderr);
  const moved = await env.run(['shield', 'get', String(pullZone), '-o', 'json']);
  t.like(JSON.parse(moved.stdout), { wafLogOnlyRules: [], wafDisabledRules: ['930100'] });
  const refused = await env.run(['shield', 'review', String(zone), '944100', 'DisableRule']);
  t.is(refused.code, 3, 'a rule the plan lacks: 403');
  t.regex(refused.stderr, /Business plan/);
  const unknownAction = await env.run(['shield', 'review', String(zone), '913100', 'Block']);
  t.is(unknownAction.code, 2);
  t.regex(unknownAction.stderr, /ACTION must be one of Ignore, LogOnly, DisableRule, got "Block"/);
  await assertNoRejections(t, env);
});

test('shield review --print-patch: the kubectl patch from the zone lists, nothing reviewed', async (t) => {
  const env = await startCliEnv(t);
  const { zone } = await zoneWithTriggers(env, {
    wafDisabledRules: ['913110'],
    wafLogOnlyRules: ['930100', "it's"],
  });
  const before = (await env.admin('GET', '/_sim/calls')) as {
    routes: Record<string, { count: number }>;
  };
  const r = await env.run([
    'shield',
    'review',
    String(zone),
    '930100',
    'DisableRule',
    '--print-patch',
    'shop-shield',
    '-n',
    'shop',
  ]);
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /^kubectl patch shieldpolicy shop-shield -n 'shop' --type merge -p '.*'\n$/);
  // The argument a shell would pass to kubectl.
  const quoted = r.stdout.slice(r.stdout.indexOf("-p '") + 3).trimEnd();
  const arg = execFileSync('sh', ['-c', `printf %s ${quoted}`], { encoding: 'utf8' });
  t.deepEqual(JSON.parse(arg), {
    spec: { waf: { disabledRules: ['913110', '930100'], logOnlyRules: ["it's"] } },
  });
  const after = (await env.admin('GET', '/_sim/calls')) as {
    routes: Record<string, { count: number }>;
  };
  const reviews = 'POST /shield/waf/rules/review-triggered/{shieldZoneId}';
  t.is(after.routes[reviews]?.count ?? 0, before.routes[reviews]?.count ?? 0, 'no review sent');
  const ignore = await env.run([
    'shield',
    'review',
    String(zone),
    '930100',
    'Ignore',
    '--print-patch',
    'p',
  ]);
  t.is(ignore.code, 2);
  t.regex(ignore.stderr, /Ignore changes neither list/);
  const badName = await env.run([
    'shield',
    'review',
    String(zone),
    '930100',
    'LogOnly',
    '--print-patch',
    'Bad_Name',
  ]);
  t.is(badName.code, 2);
  await assertNoRejections(t, env);
});

const PATCH_CASES: Array<{
  why: string;
  zone: { wafDisabledRules?: string[]; wafLogOnlyRules?: string[] };
  action: 'LogOnly' | 'DisableRule';
  expected: object;
}> = [
  {
    why: 'LogOnly adds to the log-only list only',
    zone: { wafDisabledRules: ['a'], wafLogOnlyRules: ['b'] },
    action: 'LogOnly',
    expected: { logOnlyRules: ['b', 'r'] },
  },
  {
    why: 'DisableRule of a log-only rule moves it (both lists sent whole)',
    zone: { wafDisabledRules: ['a'], wafLogOnlyRules: ['r', 'b'] },
    action: 'DisableRule',
    expected: { disabledRules: ['a', 'r'], logOnlyRules: ['b'] },
  },
  {
    why: 'already there: the same list (idempotent)',
    zone: { wafDisabledRules: ['r'] },
    action: 'DisableRule',
    expected: { disabledRules: ['r'] },
  },
  {
    why: 'lists the zone does not have count as empty',
    zone: {},
    action: 'LogOnly',
    expected: { logOnlyRules: ['r'] },
  },
];

for (const c of PATCH_CASES) {
  test(`reviewPatch: ${c.why}`, (t) => {
    t.deepEqual(reviewPatch(c.zone, 'r', c.action), { spec: { waf: c.expected } });
  });
}

test('topUrls: most targeted first, at most three', (t) => {
  t.is(topUrls({ '/a': 1, '/b': 9, '/c': 5, '/d': 2 }), '/b (9), /c (5), /d (2)');
  t.is(topUrls(null), '');
});
