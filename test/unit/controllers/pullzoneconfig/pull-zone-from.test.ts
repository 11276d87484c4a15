/**
 * The PullZoneConfig's owner table (pull-zone-from.ts) through the kit's link resolution
 * (kit/linked-resource.ts, kit/link-path.ts), one case per owner shape: the id each owner kind
 * reports, the waits, the gone zone, the ambiguous endpoint, another account; and the CRD the
 * table generates (members allowed and required per kind, the spec rules).
 */
import test from 'ava';
import {
  linkMembersOf,
  parseIdPath,
  readIdPath,
} from '../../../../src/controllers/kit/link-path.js';
import { resolveLink } from '../../../../src/controllers/kit/linked-resource.js';
import { apiVersionOfKind } from '../../../../src/controllers/kinds.js';
import {
  PULL_ZONE_LINK,
  PULL_ZONE_OWNERS,
} from '../../../../src/controllers/pullzoneconfig/pull-zone-from.js';
import { PULL_ZONE_CONFIG } from '../../../../src/controllers/pullzoneconfig/kind.js';
import { TerminalError, WaitingError } from '../../../../src/runtime/errors.js';
import type { ManagedObject, ObjectReference } from '../../../../src/runtime/types.js';
import { shippedCrd, type Json } from '../../../support/crds.js';
import { pzc } from './ref-fixtures.js';

/** An owner of team-a in the cache. */
function owner(
  kind: string,
  name: string,
  status: Record<string, unknown>,
  extra: Partial<ManagedObject['metadata']> = {},
): ManagedObject {
  return {
    apiVersion: apiVersionOfKind(kind),
    kind,
    metadata: { name, namespace: 'team-a', uid: `uid-${name}`, ...extra },
    status,
  };
}

const APP_STATUS = {
  containers: [
    { name: 'web', endpoints: [{ displayName: 'public', pullZoneId: 41 }] },
    {
      name: 'api',
      endpoints: [
        { displayName: 'public', pullZoneId: 42 },
        { displayName: 'admin', pullZoneId: 43 },
      ],
    },
  ],
};

const lookup =
  (...objs: ManagedObject[]) =>
  (ref: ObjectReference): ManagedObject | undefined =>
    objs.find(
      (o) =>
        o.kind === ref.kind &&
        o.metadata.namespace === ref.namespace &&
        o.metadata.name === ref.name,
    );

const cases: {
  name: string;
  link: Record<string, string>;
  owners: ManagedObject[];
  /** The PullZoneConfig's recorded id (it managed a zone before). */
  had?: number;
  want?: { id: number; from: Record<string, string> };
  error?: { type: typeof TerminalError | typeof WaitingError; reason: string; message: RegExp };
}[] = [
  {
    name: 'an accelerated DnsRecord: status.acceleratedPullZoneId',
    link: { kind: 'DnsRecord', name: 'fast' },
    owners: [owner('DnsRecord', 'fast', { recordId: 5, acceleratedPullZoneId: 31 })],
    want: { id: 31, from: { kind: 'DnsRecord', name: 'fast' } },
  },
  {
    name: 'a standalone EdgeScript: status.pullZoneId',
    link: { kind: 'EdgeScript', name: 'site' },
    owners: [owner('EdgeScript', 'site', { scriptId: 7, pullZoneId: '32' })],
    want: { id: 32, from: { kind: 'EdgeScript', name: 'site' } },
  },
  {
    name: 'a ContainerApp endpoint named with its container',
    link: { kind: 'ContainerApp', name: 'app', container: 'api', endpoint: 'public' },
    owners: [owner('ContainerApp', 'app', APP_STATUS)],
    want: {
      id: 42,
      from: { kind: 'ContainerApp', name: 'app', container: 'api', endpoint: 'public' },
    },
  },
  {
    name: 'a ContainerApp endpoint whose name one container has: the container is found',
    link: { kind: 'ContainerApp', name: 'app', endpoint: 'admin' },
    owners: [owner('ContainerApp', 'app', APP_STATUS)],
    want: {
      id: 43,
      from: { kind: 'ContainerApp', name: 'app', container: 'api', endpoint: 'admin' },
    },
  },
  {
    name: 'a ContainerApp endpoint name two containers have: refused, naming the missing member',
    link: { kind: 'ContainerApp', name: 'app', endpoint: 'public' },
    owners: [owner('ContainerApp', 'app', APP_STATUS)],
    error: {
      type: TerminalError,
      reason: 'InvalidSpec',
      message: /2 pull zones match .*spec\.pullZoneFrom\.container/,
    },
  },
  {
    name: 'an endpoint without a zone yet: waits',
    link: { kind: 'ContainerApp', name: 'app', endpoint: 'private' },
    owners: [owner('ContainerApp', 'app', APP_STATUS)],
    error: {
      type: WaitingError,
      reason: 'ReferenceNotReady',
      message: /ContainerApp team-a\/app endpoint private reports no pull zone/,
    },
  },
  {
    name: 'a DnsRecord not accelerated (yet): waits',
    link: { kind: 'DnsRecord', name: 'fast' },
    owners: [owner('DnsRecord', 'fast', { recordId: 5 })],
    error: {
      type: WaitingError,
      reason: 'ReferenceNotReady',
      message: /reports no pull zone \(status\.acceleratedPullZoneId\)/,
    },
  },
  {
    name: 'an owner being deleted: waits',
    link: { kind: 'EdgeScript', name: 'site' },
    owners: [
      owner(
        'EdgeScript',
        'site',
        { pullZoneId: 32 },
        { deletionTimestamp: '2026-01-01T00:00:00Z' },
      ),
    ],
    error: { type: WaitingError, reason: 'ReferenceNotReady', message: /is being deleted/ },
  },
  {
    name: 'a same-named owner of another namespace is never read',
    link: { kind: 'EdgeScript', name: 'site' },
    owners: [
      {
        ...owner('EdgeScript', 'site', { pullZoneId: 32 }),
        metadata: { name: 'site', namespace: 'team-b' },
      },
    ],
    error: {
      type: WaitingError,
      reason: 'ReferenceNotReady',
      message: /team-a\/site was not found/,
    },
  },
  {
    name: 'the owner gone after the zone was managed: LinkedZoneGone, not a wait',
    link: { kind: 'DnsRecord', name: 'fast' },
    owners: [],
    had: 31,
    error: {
      type: TerminalError,
      reason: 'LinkedZoneGone',
      message:
        /cannot manage pull zone 31: DnsRecord team-a\/fast was not found.*never created or deleted/,
    },
  },
  {
    name: 'acceleration turned off after the zone was managed: LinkedZoneGone',
    link: { kind: 'DnsRecord', name: 'fast' },
    owners: [owner('DnsRecord', 'fast', { recordId: 5 })],
    had: 31,
    error: { type: TerminalError, reason: 'LinkedZoneGone', message: /reports no pull zone/ },
  },
  {
    name: 'an owner of another account: refused',
    link: { kind: 'EdgeScript', name: 'site' },
    owners: [owner('EdgeScript', 'site', { pullZoneId: 32, ownership: { account: 'other' } })],
    error: { type: TerminalError, reason: 'InvalidSpec', message: /lives in another account/ },
  },
];

for (const c of cases) {
  test(`resolveLink: ${c.name}`, (t) => {
    const obj = pzc({ pullZoneFrom: c.link });
    if (c.had !== undefined) obj.status = { pullZoneId: c.had };
    const run = (): unknown => resolveLink(obj, PULL_ZONE_LINK, lookup(...c.owners), 'acct');
    if (c.error) {
      const err = t.throws(run, { message: c.error.message });
      t.true(err instanceof c.error.type, String(err));
      t.is((err as TerminalError | WaitingError).reason, c.error.reason);
      return;
    }
    t.deepEqual(run(), c.want);
  });
}

test('resolveLink: nothing for an object that links nothing, or is being deleted', (t) => {
  t.is(resolveLink(pzc({}), PULL_ZONE_LINK, lookup(), 'acct'), undefined);
  const deleting = pzc({ pullZoneFrom: { kind: 'EdgeScript', name: 'gone' } }, true);
  t.is(resolveLink(deleting, PULL_ZONE_LINK, lookup(), 'acct'), undefined, 'never waits');
});

test('every row of the owner table parses, and names a status path', (t) => {
  for (const row of PULL_ZONE_OWNERS) {
    const steps = parseIdPath(row.idPath);
    t.true(steps.length > 0, row.kind.kind);
    for (const m of linkMembersOf(row.idPath))
      t.truthy(row.members?.[m.member], `${row.kind.kind}.${m.member} is described`);
  }
  t.deepEqual(
    PULL_ZONE_OWNERS.map((o) => o.kind.kind),
    ['DnsRecord', 'ContainerApp', 'EdgeScript', 'VideoLibrary'],
  );
});

const paths: {
  name: string;
  path: string;
  status: unknown;
  link: Record<string, string>;
  ids: unknown[];
}[] = [
  { name: 'a flat member', path: 'pullZoneId', status: { pullZoneId: 3 }, link: {}, ids: [3] },
  { name: 'a flat member absent', path: 'pullZoneId', status: {}, link: {}, ids: [] },
  {
    name: 'a null id is none',
    path: 'pullZoneId',
    status: { pullZoneId: null },
    link: {},
    ids: [],
  },
  {
    name: 'a selector picks the matching item',
    path: 'items[name=item].id',
    status: {
      items: [
        { name: 'a', id: 1 },
        { name: 'b', id: 2 },
      ],
    },
    link: { item: 'b' },
    ids: [2],
  },
  {
    name: 'an optional selector left out tries every item',
    path: 'items[name=item?].id',
    status: {
      items: [
        { name: 'a', id: 1 },
        { name: 'b', id: 2 },
      ],
    },
    link: {},
    ids: [1, 2],
  },
  {
    name: 'not a list: nothing',
    path: 'items[name=item].id',
    status: { items: { name: 'b', id: 2 } },
    link: { item: 'b' },
    ids: [],
  },
];

for (const c of paths) {
  test(`readIdPath: ${c.name}`, (t) => {
    t.deepEqual(
      readIdPath(c.status, c.path, c.link).map((m) => m.id),
      c.ids,
    );
  });
}

test('parseIdPath: a malformed path is a programming error', (t) => {
  t.throws(() => parseIdPath('items[name].id'), { message: /cannot parse id path/ });
  t.throws(() => parseIdPath('a..b'), { message: /bad step/ });
});

const crd = shippedCrd(PULL_ZONE_CONFIG);
const spec: Json = crd.spec.versions[0].schema.openAPIV3Schema.properties.spec;

test('CRD: pullZoneFrom from the owner table; members allowed and required per kind', (t) => {
  const from = spec.properties.pullZoneFrom;
  t.deepEqual(from.required, ['kind', 'name']);
  t.deepEqual(from.properties.kind.enum, [
    'DnsRecord',
    'ContainerApp',
    'EdgeScript',
    'VideoLibrary',
  ]);
  t.deepEqual(Object.keys(from.properties as Json).sort(), [
    'container',
    'endpoint',
    'kind',
    'name',
  ]);
  const rules = (from['x-kubernetes-validations'] as Json[]).map((r) => r.rule as string);
  t.deepEqual(rules.sort(), [
    "self.kind != 'ContainerApp' || has(self.endpoint)",
    "self.kind in ['ContainerApp'] || !has(self.container)",
    "self.kind in ['ContainerApp'] || !has(self.endpoint)",
  ]);
});

test('CRD: pullZoneFrom excludes adoption, name, Delete and the origin; it is immutable', (t) => {
  const messages = (spec['x-kubernetes-validations'] as Json[])
    .filter((r) => String(r.rule).includes('pullZoneFrom'))
    .map((r) => r.message as string);
  for (const m of [
    /leave adoption out/,
    /deletionPolicy Delete is refused/,
    /pullZoneFrom is immutable/,
    /leave name out/,
    /settings\.originUrl.*storageZoneRef, edgeScriptRef out/,
  ])
    t.true(
      messages.some((x) => m.test(x)),
      String(m),
    );
  const status = crd.spec.versions[0].schema.openAPIV3Schema.properties.status;
  t.deepEqual(Object.keys(status.properties.linkedFrom.properties as Json).sort(), [
    'container',
    'endpoint',
    'kind',
    'name',
  ]);
});
