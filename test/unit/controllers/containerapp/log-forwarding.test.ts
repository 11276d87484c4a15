/**
 * Pure rules of `spec.logForwarding` (log-forwarding.ts): desired from spec, the one write a
 * pass plans (table), the token compared by fingerprint or in memory (never rendered), the
 * request body, the status and the export block.
 */
import test from 'ava';
import type { LogForwarding } from '../../../../src/cdn/security-types.js';
import {
  desiredLogForwarding,
  logForwardingSpecOf,
  planLogForwarding,
  recordedLogForwarding,
  toLogForwardingRequest,
  tokenFingerprint,
  type DesiredLogForwarding,
  type LogForwardingAction,
} from '../../../../src/controllers/containerapp/log-forwarding.js';
import { logForwardingSpecPath } from '../../../../src/controllers/containerapp/log-forwarding-sync.js';
import type {
  ContainerApp,
  LogForwardingSpec,
  LogForwardingStatus,
} from '../../../../src/controllers/containerapp/types.js';

const TOKEN = 'syslog-token-0123456789';
const UID = 'uid-1';
const fp = (t: string): string => tokenFingerprint(UID, t);

const SPEC: LogForwardingSpec = {
  type: 'SyslogTCP',
  endpoint: 'Logs.Example.com',
  port: 6514,
  format: 'SyslogRFC5424',
  tokenSecretRef: { name: 'logs', key: 'token' },
};

function desired(
  spec: Partial<LogForwardingSpec> = {},
  token: string | undefined = TOKEN,
): DesiredLogForwarding {
  return desiredLogForwarding({ logForwarding: { ...SPEC, ...spec } }, token)!;
}

const LIVE: LogForwarding = {
  id: 'lf-1',
  app: 'app-1',
  type: 'SyslogTcp',
  endpoint: 'logs.example.com',
  port: 6514,
  format: 'SyslogRfc5424',
  enabled: true,
  tokenSet: true,
  tokenMatches: true,
};

interface Case {
  name: string;
  desired?: DesiredLogForwarding;
  live?: LogForwarding;
  recorded?: LogForwardingStatus;
  action: LogForwardingAction;
  fields: string[];
  /** status.logForwarding.tokenFingerprint after observe; null: no status at all. */
  fingerprint?: string | null;
}

const CASES: Case[] = [
  {
    name: 'no configuration yet: create',
    desired: desired(),
    action: 'create',
    fields: ['logForwarding'],
    fingerprint: null,
  },
  {
    name: 'equal, fingerprint recorded: nothing (endpoint case ignored)',
    desired: desired(),
    live: { ...LIVE, tokenMatches: false },
    recorded: { tokenFingerprint: fp(TOKEN) },
    action: 'none',
    fields: [],
    fingerprint: fp(TOKEN),
  },
  {
    name: 'one member differs: replace naming it',
    desired: desired({ port: 514 }),
    live: LIVE,
    recorded: { tokenFingerprint: fp(TOKEN) },
    action: 'replace',
    fields: ['logForwarding.port'],
    fingerprint: fp(TOKEN),
  },
  {
    name: 'enabled unset means true: a disabled live one is enabled',
    desired: desired(),
    live: { ...LIVE, enabled: false },
    recorded: { tokenFingerprint: fp(TOKEN) },
    action: 'replace',
    fields: ['logForwarding.enabled'],
    fingerprint: fp(TOKEN),
  },
  {
    name: 'Secret rotated (fingerprint differs): replace, old fingerprint kept until applied',
    desired: desired({}, 'rotated-token-value'),
    live: LIVE,
    recorded: { tokenFingerprint: fp(TOKEN) },
    action: 'replace',
    fields: ['logForwarding.token'],
    fingerprint: fp(TOKEN),
  },
  {
    name: 'adopted, platform token equal to the Secret: nothing, fingerprint established',
    desired: desired(),
    live: LIVE,
    action: 'none',
    fields: [],
    fingerprint: fp(TOKEN),
  },
  {
    name: 'adopted, platform token different: replace',
    desired: desired(),
    live: { ...LIVE, tokenMatches: false },
    action: 'replace',
    fields: ['logForwarding.token'],
    fingerprint: undefined,
  },
  {
    name: 'adopted, platform answer without token (not comparable): replace once',
    desired: desired(),
    live: { ...LIVE, tokenSet: undefined, tokenMatches: undefined },
    action: 'replace',
    fields: ['logForwarding.token'],
    fingerprint: undefined,
  },
  {
    name: 'token not managed: never compared, no fingerprint',
    desired: desired({ tokenSecretRef: undefined }, undefined),
    live: { ...LIVE, tokenMatches: undefined },
    recorded: { tokenFingerprint: fp(TOKEN) },
    action: 'none',
    fields: [],
    fingerprint: undefined,
  },
  {
    name: 'block removed, managed: delete',
    live: LIVE,
    recorded: { id: 'lf-1', tokenFingerprint: fp(TOKEN) },
    action: 'delete',
    fields: ['logForwarding'],
    fingerprint: fp(TOKEN),
  },
  {
    name: 'block removed, managed, already gone: nothing, status forgets it',
    recorded: { id: 'lf-1' },
    action: 'none',
    fields: [],
    fingerprint: null,
  },
  {
    name: 'managed one deleted outside: created again',
    desired: desired(),
    recorded: { id: 'lf-1', tokenFingerprint: fp(TOKEN) },
    action: 'create',
    fields: ['logForwarding'],
    fingerprint: null,
  },
];

for (const c of CASES) {
  test(`plan: ${c.name}`, (t) => {
    const plan = planLogForwarding({
      desired: c.desired,
      live: c.live,
      recorded: c.recorded,
      fingerprint: fp,
    });
    t.is(plan.action, c.action);
    t.deepEqual(
      plan.diffs.map((d) => d.field),
      c.fields,
    );
    if (c.fingerprint === null) t.is(plan.status, undefined);
    else t.is(plan.status?.tokenFingerprint, c.fingerprint);
    const text = JSON.stringify(plan.diffs) + JSON.stringify(plan.status);
    t.false(text.includes(TOKEN) || text.includes('rotated-token-value'), 'no token rendered');
  });
}

test('plan entries of a create and a delete show the members, the token as <redacted>', (t) => {
  const create = planLogForwarding({
    desired: desired(),
    live: undefined,
    recorded: undefined,
    fingerprint: fp,
  });
  t.regex(create.diffs[0]!.desired, /"token":"<redacted>"/);
  t.regex(create.diffs[0]!.desired, /"port":6514/);
  const del = planLogForwarding({
    desired: undefined,
    live: LIVE,
    recorded: {},
    fingerprint: fp,
  });
  t.like(del.diffs[0], {
    live: '{"enabled":true,"type":"SyslogTCP","endpoint":"logs.example.com","port":6514,"format":"SyslogRFC5424"}',
    desired: '<unset>',
  });
});

test('desired: no block -> undefined; enabled defaults to true; token only with a reference', (t) => {
  t.is(desiredLogForwarding({}, TOKEN), undefined);
  t.like(desired(), { enabled: true, tokenRef: true, token: TOKEN });
  t.like(desired({ enabled: false }), { enabled: false });
  const unmanaged = desired({ tokenSecretRef: undefined }, TOKEN);
  t.false(unmanaged.tokenRef);
  t.false('token' in unmanaged, 'a token without a reference is ignored');
});

test('request body: every required member, the token only when managed', (t) => {
  t.deepEqual(toLogForwardingRequest('app-1', desired()), {
    app: 'app-1',
    type: 'SyslogTcp',
    endpoint: 'Logs.Example.com',
    port: 6514,
    format: 'SyslogRfc5424',
    enabled: true,
    token: TOKEN,
  });
  t.false(
    'token' in toLogForwardingRequest('app-1', desired({ tokenSecretRef: undefined }, undefined)),
  );
});

test('fingerprint: sha256, salted with the uid, never the token', (t) => {
  const a = tokenFingerprint('u1', TOKEN);
  t.regex(a, /^sha256:[0-9a-f]{64}$/);
  t.not(a, tokenFingerprint('u2', TOKEN), 'salted by uid');
  t.not(a, tokenFingerprint('u1', `${TOKEN}x`));
  t.false(a.includes(TOKEN));
});

test('recorded only for the application status names', (t) => {
  const obj = {
    metadata: { name: 'a', namespace: 'n' },
    status: { appId: 'app-1', logForwarding: { id: 'lf-1' } },
  } as unknown as ContainerApp;
  t.deepEqual(recordedLogForwarding(obj, 'app-1'), { id: 'lf-1' });
  t.is(recordedLogForwarding(obj, 'app-2'), undefined);
});

test('export block: members as read, the token as a reference only', (t) => {
  const ref = { name: 'shop-log-forwarding', key: 'token' };
  t.deepEqual(logForwardingSpecOf(LIVE, ref), {
    enabled: true,
    type: 'SyslogTCP',
    endpoint: 'logs.example.com',
    port: 6514,
    format: 'SyslogRFC5424',
    tokenSecretRef: ref,
  });
  t.false('tokenSecretRef' in logForwardingSpecOf(LIVE, undefined)!);
  t.is(logForwardingSpecOf({ ...LIVE, port: undefined }, ref), undefined);
  // Round trip: the exported block plans nothing against the configuration it came from.
  const block = logForwardingSpecOf(LIVE, ref)!;
  const plan = planLogForwarding({
    desired: desiredLogForwarding({ logForwarding: block }, TOKEN),
    live: LIVE,
    recorded: undefined,
    fingerprint: fp,
  });
  t.is(plan.action, 'none');
});

const PATHS: Array<[string, string]> = [
  ['endpoint', 'spec.logForwarding.endpoint'],
  ['Port', 'spec.logForwarding.port'],
  ['token', 'spec.logForwarding.tokenSecretRef'],
  ['app', 'spec.logForwarding'],
];
for (const [field, path] of PATHS) {
  test(`a platform error on ${field} names ${path}`, (t) => {
    t.is(logForwardingSpecPath(field), path);
  });
}
