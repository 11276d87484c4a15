/**
 * What `cdnctl migrate --live` writes, as pure functions of the legacy object: the pause patch,
 * the new object, its status, the refusals, the Secrets' owners and the uid-salted digests.
 */
import test from 'ava';
import { findKind } from '../../../src/controllers/kinds.js';
import type { LiveObject } from '../../../src/cli/migrate/live/legacy-api.js';
import {
  MIGRATED_FROM,
  newObjectOf,
  newStatusOf,
  pausePatchOf,
  refusalOf,
} from '../../../src/cli/migrate/live/new-object.js';
import { handedOver } from '../../../src/cli/migrate/live/owned-secrets.js';
import { rekeyedDigest, uidDigestsOf } from '../../../src/cli/migrate/live/uid-digests.js';
import { KINDS } from '../../../src/controllers/kinds.js';

const PAUSED = 'cdn.operator.io/paused';
const ZONE = findKind('DnsZone')!;
const ACCOUNT = findKind('CdnAccount')!;

function legacy(
  over: Partial<LiveObject['metadata']> = {},
  spec: Record<string, unknown> = {},
): LiveObject {
  return {
    apiVersion: 'cdn.operator.io/v1alpha1',
    kind: 'DnsZone',
    metadata: { name: 'z', namespace: 'team', uid: 'old-uid', ...over },
    spec: { domain: 'z.example', deletionPolicy: 'Delete', ...spec },
    status: {
      dnsZoneId: 7,
      ownership: { adopted: false, deletionPolicy: 'Delete' },
      conditions: [{ type: 'Ready', status: 'True' }],
      observedGeneration: 3,
    },
  };
}

test('pause patch: paused, Orphan, and what the user had recorded (a kind with no platform resource: no policy)', (t) => {
  t.deepEqual(pausePatchOf(ZONE, legacy()), {
    metadata: {
      annotations: {
        [PAUSED]: 'true',
        'cdn.operator.io/migrate-was-paused': 'false',
        'cdn.operator.io/migrate-deletion-policy': 'Delete',
      },
    },
    spec: { deletionPolicy: 'Orphan' },
  });
  t.false('spec' in pausePatchOf(ACCOUNT, { ...legacy(), kind: 'CdnAccount' }));
});

test('pause patch on a re-run: the recorded user values win over the ones migrate set', (t) => {
  const rerun = legacy(
    {
      annotations: {
        [PAUSED]: 'true',
        'cdn.operator.io/migrate-was-paused': 'false',
        'cdn.operator.io/migrate-deletion-policy': '',
      },
    },
    { deletionPolicy: 'Orphan' },
  );
  const patch = pausePatchOf(ZONE, rerun) as { metadata: { annotations: Record<string, string> } };
  t.is(patch.metadata.annotations['cdn.operator.io/migrate-was-paused'], 'false');
  t.is(patch.metadata.annotations['cdn.operator.io/migrate-deletion-policy'], '');
  t.false('deletionPolicy' in newObjectOf(ZONE, rerun).spec!, 'the user had none: none');
});

test('new object: same name, labels, spec and user annotations; paused, with its origin; no last-applied', (t) => {
  const old = legacy(
    {
      labels: { app: 'shop' },
      annotations: {
        'kubectl.kubernetes.io/last-applied-configuration': '{}',
        'cdn.operator.io/poll-interval': '10m',
      },
    },
    {},
  );
  t.deepEqual(newObjectOf(ZONE, old), {
    apiVersion: 'dns.cdn.operator.io/v1beta1',
    kind: 'DnsZone',
    metadata: {
      name: 'z',
      namespace: 'team',
      labels: { app: 'shop' },
      annotations: {
        'cdn.operator.io/poll-interval': '10m',
        [MIGRATED_FROM]: 'old-uid',
        [PAUSED]: 'true',
      },
    },
    spec: { domain: 'z.example', deletionPolicy: 'Delete' },
  });
});

test('new status: ids and ownership copied, conditions and observedGeneration left to the pass', (t) => {
  t.deepEqual(newStatusOf(ZONE, legacy()), {
    dnsZoneId: 7,
    ownership: { adopted: false, deletionPolicy: 'Delete' },
  });
});

const REFUSALS: Array<{
  name: string;
  old: LiveObject;
  existing?: LiveObject;
  refused: RegExp | undefined;
}> = [
  { name: 'a plain legacy object moves', old: legacy(), refused: undefined },
  {
    name: 'a new object of that name not made by migrate: refused',
    old: legacy(),
    existing: {
      ...legacy(),
      apiVersion: 'dns.cdn.operator.io/v1beta1',
      metadata: { name: 'z', uid: 'other' },
    },
    refused: /not created by cdnctl migrate/,
  },
  {
    name: 'the new object this migrate made: resumed',
    old: legacy(),
    existing: {
      ...legacy(),
      metadata: { name: 'z', uid: 'n', annotations: { [MIGRATED_FROM]: 'old-uid' } },
    },
    refused: undefined,
  },
  {
    name: 'a pending create: its resource could not be recognised',
    old: { ...legacy(), status: { ownership: { createPending: 'x' } } },
    refused: /create of the old operator is pending/,
  },
  {
    name: 'a legacy object being deleted, with no new object: left alone',
    old: legacy({ deletionTimestamp: '2026-01-01T00:00:00Z' }),
    refused: /being deleted/,
  },
];

for (const c of REFUSALS) {
  test(`refusal: ${c.name}`, (t) => {
    const why = refusalOf(c.old, c.existing);
    if (c.refused) t.regex(why ?? '', c.refused);
    else t.is(why, undefined);
  });
}

test('Secrets: the reference to the legacy object points at the new one, flags and other owners kept', (t) => {
  const created: LiveObject = {
    ...newObjectOf(ZONE, legacy()),
    metadata: { name: 'z', uid: 'new-uid' },
  };
  const refs = [
    {
      apiVersion: 'cdn.operator.io/v1alpha1',
      kind: 'DnsZone',
      name: 'z',
      uid: 'old-uid',
      controller: true,
    },
    { apiVersion: 'v1', kind: 'ConfigMap', name: 'c', uid: 'cm' },
  ];
  t.deepEqual(handedOver(refs, legacy(), created), [
    {
      apiVersion: 'dns.cdn.operator.io/v1beta1',
      kind: 'DnsZone',
      name: 'z',
      uid: 'new-uid',
      controller: true,
    },
    refs[1],
  ]);
});

test('the uid-salted digests are declared by their kinds: ContainerRegistry and ContainerApp', async (t) => {
  const declared = await Promise.all(
    KINDS.map(async (k) => [k.kind, (await uidDigestsOf(k.kind)).length] as const),
  );
  const kinds = declared.filter(([, n]) => n > 0).map(([kind]) => kind);
  t.deepEqual(kinds.sort(), ['ContainerApp', 'ContainerRegistry']);
});

for (const kind of ['ContainerRegistry', 'ContainerApp']) {
  test(`uid digest of ${kind}: re-keyed when it matches the Secret, kept when a rotation is pending`, async (t) => {
    const [entry] = await uidDigestsOf(kind);
    if (!entry) return t.fail(`${kind} declares no uid digest`);
    const uids = { from: 'old', to: 'new' };
    const applied = entry.digest('old', 'pw');
    t.is(rekeyedDigest(entry, uids, applied, 'pw'), entry.digest('new', 'pw'));
    t.not(entry.digest('new', 'pw'), applied, 'the digest depends on the uid');
    t.is(rekeyedDigest(entry, uids, applied, 'rotated'), applied, 'the rotation is still applied');
    t.is(rekeyedDigest(entry, uids, applied, undefined), applied, 'no Secret: unchanged');
  });
}
