/**
 * The plan of an EdgeScript's secrets (secrets.ts), table-driven and without I/O: what is
 * upserted or deleted, what the plan shows (never a value) and what status keeps; then the
 * waiting condition of a missing Secret or key (naming the field, the Secret and the key).
 */
import test from 'ava';
import type { EdgeScriptSecret } from '../../../../src/cdn/edge-script-types.js';
import { WaitingError } from '../../../../src/runtime/errors.js';
import {
  appliedSecretStatus,
  planSecrets,
  secretFingerprint,
  secretReferences,
  wantedSecrets,
  type WantedSecret,
} from '../../../../src/controllers/edgescript/secrets.js';
import type { EdgeScript, SecretStatus } from '../../../../src/controllers/edgescript/types.js';

const UID = 'uid-es';
const T1 = '2026-11-01T10:00:00Z';
const T2 = '2026-11-02T10:00:00Z';

function wanted(name: string, value: string): WantedSecret {
  return { name, value, fingerprint: secretFingerprint(UID, name, value) };
}
function live(id: number, name: string, lastModified = T1): EdgeScriptSecret {
  return { Id: id, Name: name, LastModified: lastModified };
}
function recorded(name: string, value: string, lastModified?: string): SecretStatus {
  return {
    name,
    fingerprint: secretFingerprint(UID, name, value),
    ...(lastModified ? { lastModified } : {}),
  };
}

interface Case {
  reason: string;
  live: EdgeScriptSecret[];
  wanted: WantedSecret[];
  recorded?: SecretStatus[];
  /** Names upserted, in order. */
  upsert: string[];
  remove: number[];
  /** The plan's entries as `field: live -> desired`. */
  diffs: string[];
  /** Names status keeps while nothing is sent, with their recorded or live time. */
  observed: [string, string | undefined][];
}

const CASES: Case[] = [
  {
    reason: 'a secret the script lacks is upserted; the plan shows no value',
    live: [],
    wanted: [wanted('API_TOKEN', 's3cret-one')],
    upsert: ['API_TOKEN'],
    remove: [],
    diffs: ['secrets[API_TOKEN]: <unset> -> <redacted> (missing)'],
    observed: [],
  },
  {
    reason: 'recorded fingerprint and time match: nothing is sent',
    live: [live(1, 'API_TOKEN')],
    wanted: [wanted('API_TOKEN', 's3cret-one')],
    recorded: [recorded('API_TOKEN', 's3cret-one', T1)],
    upsert: [],
    remove: [],
    diffs: [],
    observed: [['API_TOKEN', T1]],
  },
  {
    reason: 'a rotated Secret (new value, other fingerprint) upserts exactly that secret',
    live: [live(1, 'API_TOKEN'), live(2, 'OTHER')],
    wanted: [wanted('API_TOKEN', 's3cret-two'), wanted('OTHER', 'kept')],
    recorded: [recorded('API_TOKEN', 's3cret-one', T1), recorded('OTHER', 'kept', T1)],
    upsert: ['API_TOKEN'],
    remove: [],
    diffs: ['secrets[API_TOKEN]: <redacted> -> <redacted> (rotated)'],
    // The rotated one keeps its old record until the write succeeds.
    observed: [
      ['API_TOKEN', T1],
      ['OTHER', T1],
    ],
  },
  {
    reason: 'set on the platform by someone else (LastModified moved): written again',
    live: [live(1, 'API_TOKEN', T2)],
    wanted: [wanted('API_TOKEN', 's3cret-one')],
    recorded: [recorded('API_TOKEN', 's3cret-one', T1)],
    upsert: ['API_TOKEN'],
    remove: [],
    diffs: ['secrets[API_TOKEN]: <redacted> -> <redacted> (changed on the platform)'],
    observed: [['API_TOKEN', T1]],
  },
  {
    reason: 'a recorded fingerprint without a time is not drift',
    live: [live(1, 'API_TOKEN', T2)],
    wanted: [wanted('API_TOKEN', 's3cret-one')],
    recorded: [recorded('API_TOKEN', 's3cret-one')],
    upsert: [],
    remove: [],
    diffs: [],
    observed: [['API_TOKEN', T2]],
  },
  {
    reason:
      'nothing recorded (adopted script): the Secret is taken as the live value, recorded, not sent',
    live: [live(1, 'API_TOKEN')],
    wanted: [wanted('API_TOKEN', 's3cret-one')],
    upsert: [],
    remove: [],
    diffs: [],
    observed: [['API_TOKEN', T1]],
  },
  {
    reason: 'a secret the list does not name is deleted by id (like env for variables)',
    live: [live(1, 'API_TOKEN'), live(7, 'STALE')],
    wanted: [wanted('API_TOKEN', 's3cret-one')],
    recorded: [recorded('API_TOKEN', 's3cret-one', T1)],
    upsert: [],
    remove: [7],
    diffs: ['secrets[STALE]: <redacted> -> <unset>'],
    observed: [['API_TOKEN', T1]],
  },
  {
    reason: 'an empty list deletes every secret',
    live: [live(1, 'A'), live(2, 'B')],
    wanted: [],
    upsert: [],
    remove: [1, 2],
    diffs: ['secrets[A]: <redacted> -> <unset>', 'secrets[B]: <redacted> -> <unset>'],
    observed: [],
  },
];

for (const c of CASES) {
  test(`plan: ${c.reason}`, (t) => {
    const { plan, diffs, observed } = planSecrets(c.live, c.wanted, c.recorded);
    t.deepEqual(
      plan.upsert.map((u) => u.Name),
      c.upsert,
    );
    t.deepEqual(plan.remove, c.remove);
    t.deepEqual(
      diffs.map((d) => `${d.field}: ${d.live} -> ${d.desired}`),
      c.diffs,
    );
    t.deepEqual(
      observed.map((o) => [o.name, o.lastModified]),
      c.observed,
    );
    // Every value goes to the upsert it belongs to, and nowhere else.
    const shown = JSON.stringify({ diffs, observed, applied: plan.applied });
    for (const w of c.wanted) t.false(shown.includes(w.value), `${w.name}'s value is shown`);
    for (const u of plan.upsert)
      t.is<string | undefined, string | undefined>(
        u.Secret,
        c.wanted.find((w) => w.name === u.Name)?.value,
      );
  });
}

test('after the calls, status holds every wanted secret with the platform time', (t) => {
  const { plan } = planSecrets([], [wanted('A', 'x'), wanted('B', 'y')]);
  t.deepEqual(appliedSecretStatus(plan, [live(3, 'A', T2)]), [
    recorded('A', 'x', T2),
    // B was not read back (a failed read): its fingerprint, no time.
    recorded('B', 'y'),
  ]);
});

function objectWith(secrets: NonNullable<EdgeScript['spec']>['secrets']): EdgeScript {
  return {
    apiVersion: 'compute.cdn.operator.io/v1beta1',
    kind: 'EdgeScript',
    metadata: { name: 'es', namespace: 'team-a', uid: UID },
    spec: { scriptType: 'Middleware', code: { inline: 'x' }, secrets },
  };
}

const REF = (name: string, key: string): { secretKeyRef: { name: string; key: string } } => ({
  secretKeyRef: { name, key },
});

const WAITS: {
  reason: string;
  secrets: Record<string, Record<string, string>>;
  message: string;
}[] = [
  {
    reason: 'a missing Secret names the field and the Secret',
    secrets: {},
    message: 'waiting for Secret team-a/tokens (spec.secrets[API_TOKEN]): not found',
  },
  {
    reason: 'a missing key names the field, the Secret and the key',
    secrets: { tokens: { other: 'zzz-value' } },
    message: 'waiting for Secret team-a/tokens to have key "token" (spec.secrets[API_TOKEN])',
  },
];

for (const c of WAITS) {
  test(`waits: ${c.reason}`, async (t) => {
    const obj = objectWith([{ name: 'API_TOKEN', valueFrom: REF('tokens', 'token') }]);
    const readSecret = (_ns: string, name: string): Promise<Record<string, string> | undefined> =>
      Promise.resolve(c.secrets[name]);
    const err = await t.throwsAsync(wantedSecrets(obj, { readSecret }), {
      instanceOf: WaitingError,
    });
    t.is(err?.message, c.message);
    t.is(err?.reason, 'ReferenceNotReady');
    t.false(err?.message.includes('zzz-value'));
  });
}

test('not managed while spec.secrets is absent; Secrets watched once each', async (t) => {
  const bare = objectWith(undefined);
  t.is(
    await wantedSecrets(bare, { readSecret: () => Promise.reject(new Error('read')) }),
    undefined,
  );
  t.deepEqual(secretReferences(bare), []);
  const two = objectWith([
    { name: 'A', valueFrom: REF('tokens', 'a') },
    { name: 'B', valueFrom: REF('tokens', 'b') },
  ]);
  t.deepEqual(secretReferences(two), [
    { apiVersion: 'v1', kind: 'Secret', namespace: 'team-a', name: 'tokens' },
  ]);
});
