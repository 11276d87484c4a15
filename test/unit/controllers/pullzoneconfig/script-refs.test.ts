/**
 * PullZoneConfig references to EdgeScripts (issue 46): `spec.edgeScriptRef`,
 * `spec.middlewareScriptRef` and `scriptRef` on a RunEdgeScript action resolve to the script's
 * `status.scriptId` (waiting while it has none, refusing the wrong script type, another account
 * or a conflicting raw id), and the raw ids they replace are id references the runtime refuses
 * when another namespace's EdgeScript manages the script.
 */
import test from 'ava';
import { ClaimIndex } from '../../../../src/runtime/claims.js';
import { findForeignReference } from '../../../../src/runtime/claims-policy.js';
import { TerminalError, WaitingError } from '../../../../src/runtime/errors.js';
import type { ClaimRef, ManagedObject, ObjectReference } from '../../../../src/runtime/types.js';
import { toWireRule } from '../../../../src/controllers/pullzoneconfig/edge-rules-mapping.js';
import { toApiSettings } from '../../../../src/controllers/pullzoneconfig/mapping.js';
import { idReferencesOf } from '../../../../src/controllers/pullzoneconfig/references.js';
import {
  resolveScripts,
  scriptReferences,
  withScriptIds,
} from '../../../../src/controllers/pullzoneconfig/script-refs.js';
import { pzc } from './ref-fixtures.js';
import { apiVersionOfKind } from '../../../../src/controllers/kinds.js';

/** An EdgeScript `name` of team-a with `status` (and the spec's type). */
function script(
  name: string,
  scriptType: string,
  status?: Record<string, unknown>,
  namespace = 'team-a',
): ManagedObject {
  return {
    apiVersion: apiVersionOfKind('EdgeScript'),
    kind: 'EdgeScript',
    metadata: { name, namespace, uid: `uid-${namespace}-${name}` },
    spec: { scriptType },
    ...(status ? { status } : {}),
  };
}

const lookup =
  (...objs: ManagedObject[]) =>
  (ref: ObjectReference): ManagedObject | undefined =>
    objs.find((o) => o.kind === ref.kind && o.metadata.name === ref.name);

const MW = script('mw', 'Middleware', { scriptId: 8, scriptType: 'Middleware' });
const SITE = script('site', 'Standalone', { scriptId: 7, scriptType: 'Standalone' });

function rule(action: Record<string, unknown>): Record<string, unknown> {
  return { name: 'run', action, triggers: [{ type: 'Url', patternMatches: ['*/api/*'] }] };
}

const cases: {
  name: string;
  spec: Record<string, unknown>;
  scripts?: ManagedObject[];
  deleting?: boolean;
  settings?: Record<string, unknown>;
  actions?: Record<string, number>;
  error?: { type: typeof TerminalError | typeof WaitingError; message: RegExp };
}[] = [
  {
    name: 'a middleware ref becomes MiddlewareScriptId',
    spec: { middlewareScriptRef: { name: 'mw' } },
    scripts: [MW],
    settings: { middlewareScriptId: 8 },
  },
  {
    name: 'an edge script ref becomes the origin: OriginType EdgeScript and EdgeScriptId',
    spec: { edgeScriptRef: { name: 'site' } },
    scripts: [SITE],
    settings: { originType: 'EdgeScript', edgeScriptId: 7 },
  },
  {
    name: 'a string id in status is accepted',
    spec: { middlewareScriptRef: { name: 'mw' } },
    scripts: [script('mw', 'Middleware', { scriptId: '9', scriptType: 'Middleware' })],
    settings: { middlewareScriptId: 9 },
  },
  {
    name: "the spec's type counts while status has none yet",
    spec: { middlewareScriptRef: { name: 'mw' } },
    scripts: [script('mw', 'Middleware', { scriptId: 8 })],
    settings: { middlewareScriptId: 8 },
  },
  {
    name: 'a RunEdgeScript scriptRef becomes parameter1',
    spec: { edgeRules: [rule({ type: 'RunEdgeScript', scriptRef: { name: 'mw' } })] },
    scripts: [MW],
    settings: {},
    actions: { 'edgeRules[run].action': 8 },
  },
  {
    name: 'a missing script: waits',
    spec: { middlewareScriptRef: { name: 'mw' } },
    error: { type: WaitingError, message: /EdgeScript team-a\/mw was not found/ },
  },
  {
    name: 'a script with no id yet: waits',
    spec: { middlewareScriptRef: { name: 'mw' } },
    scripts: [script('mw', 'Middleware', {})],
    error: { type: WaitingError, message: /spec\.middlewareScriptRef: .*no status\.scriptId yet/ },
  },
  {
    // A pass between the platform's delete and the object's removal attached it again (e2e).
    name: 'a script being deleted: waits, so the deleted script is not attached again',
    spec: { middlewareScriptRef: { name: 'mw' } },
    scripts: [
      {
        ...MW,
        metadata: { ...MW.metadata, deletionTimestamp: '2025-01-01T00:00:00Z' },
      },
    ],
    error: { type: WaitingError, message: /EdgeScript team-a\/mw is being deleted/ },
  },
  {
    name: 'an action whose script has no id yet: waits, naming the action',
    spec: { edgeRules: [rule({ type: 'RunEdgeScript', scriptRef: { name: 'mw' } })] },
    error: { type: WaitingError, message: /spec\.edgeRules\[run\]\.action\.scriptRef/ },
  },
  {
    name: 'a Standalone script as middleware is refused, naming edgeScriptRef',
    spec: { middlewareScriptRef: { name: 'site' } },
    scripts: [SITE],
    error: {
      type: TerminalError,
      message:
        /is a Standalone script and spec\.middlewareScriptRef takes a Middleware script \(name it with spec\.edgeScriptRef\)/,
    },
  },
  {
    name: 'a Middleware script as origin is refused',
    spec: { edgeScriptRef: { name: 'mw' } },
    scripts: [MW],
    error: { type: TerminalError, message: /spec\.edgeScriptRef takes a Standalone script/ },
  },
  {
    name: 'a script of another account is refused',
    spec: { middlewareScriptRef: { name: 'mw' } },
    scripts: [
      script('mw', 'Middleware', {
        scriptId: 8,
        scriptType: 'Middleware',
        ownership: { account: 'other' },
      }),
    ],
    error: { type: TerminalError, message: /another account/ },
  },
  {
    name: 'the ref together with the raw id is refused',
    spec: { middlewareScriptRef: { name: 'mw' }, settings: { middlewareScriptId: 8 } },
    scripts: [MW],
    error: { type: TerminalError, message: /together with spec\.settings\.middlewareScriptId/ },
  },
  {
    name: 'a scriptRef on another action type is refused',
    spec: { edgeRules: [rule({ type: 'OriginStorage', scriptRef: { name: 'mw' } })] },
    scripts: [MW],
    error: { type: TerminalError, message: /only a RunEdgeScript action takes a scriptRef/ },
  },
  {
    name: 'deletion never waits for a script',
    spec: { middlewareScriptRef: { name: 'mw' } },
    deleting: true,
  },
  { name: 'no reference: nothing to resolve', spec: { settings: { middlewareScriptId: 8 } } },
];

for (const c of cases) {
  test(`resolve: ${c.name}`, (t) => {
    const run = (): unknown =>
      resolveScripts(pzc(c.spec, c.deleting), lookup(...(c.scripts ?? [])), 'acct');
    if (c.error) {
      const err = t.throws(run);
      t.true(err instanceof c.error.type, err?.constructor.name);
      t.regex(err?.message ?? '', c.error.message);
      return;
    }
    const want = c.settings && {
      settings: c.settings,
      actions: new Map(Object.entries(c.actions ?? {})),
    };
    t.deepEqual(run(), want);
  });
}

test('the references name each EdgeScript of the namespace once, for the watch', (t) => {
  const obj = pzc({
    middlewareScriptRef: { name: 'mw' },
    edgeRules: [rule({ type: 'RunEdgeScript', scriptRef: { name: 'mw' } })],
    edgeScriptRef: { name: 'site' },
  });
  t.deepEqual(
    scriptReferences(obj).map((r) => `${r.apiVersion} ${r.kind} ${r.namespace}/${r.name}`),
    [
      `${apiVersionOfKind('EdgeScript')} EdgeScript team-a/site`,
      `${apiVersionOfKind('EdgeScript')} EdgeScript team-a/mw`,
    ],
  );
});

test('the resolved object carries the ids on the wire: settings and the action parameter', (t) => {
  const obj = pzc({
    middlewareScriptRef: { name: 'mw' },
    settings: { originUrl: 'https://a.example.com' },
    edgeRules: [
      {
        ...rule({ type: 'SetResponseHeader', parameter1: 'X-A', parameter2: 'b' }),
        extraActions: [{ type: 'RunEdgeScript', scriptRef: { name: 'mw' } }],
      },
    ],
  });
  const scripts = resolveScripts(obj, lookup(MW), 'acct');
  const resolved = withScriptIds(obj, scripts!);
  t.like(toApiSettings(resolved.spec?.settings), {
    MiddlewareScriptId: 8,
    OriginUrl: 'https://a.example.com',
  });
  const wire = toWireRule(resolved.spec!.edgeRules![0]!, 0);
  t.is(wire.ActionParameter1, 'X-A', 'the main action is unchanged');
  t.like(wire.ExtraActions?.[0], { ActionType: 21, ActionParameter1: '8' });
  t.false('scriptRef' in resolved.spec!.edgeRules![0]!.extraActions![0]!);
  t.deepEqual(obj.spec?.settings, { originUrl: 'https://a.example.com' }, 'input untouched');
});

/** An index where EdgeScript `mw` of `namespace` manages script 8 (recorded). */
function indexWithScript(namespace: string): ClaimIndex {
  const index = new ClaimIndex();
  const claims: ClaimRef[] = [{ type: 'EdgeScript', id: '8', recorded: true }];
  index.set('EdgeScript', script('mw', 'Middleware', { scriptId: 8 }, namespace), claims, 'acct');
  return index;
}

const RAW_IDS: { name: string; spec: Record<string, unknown>; field: string }[] = [
  {
    name: 'settings.middlewareScriptId',
    spec: { settings: { middlewareScriptId: 8 } },
    field: 'spec.settings.middlewareScriptId',
  },
  {
    name: 'settings.edgeScriptId',
    spec: { settings: { originType: 'EdgeScript', edgeScriptId: 8 } },
    field: 'spec.settings.edgeScriptId',
  },
  {
    name: 'a RunEdgeScript parameter1',
    spec: { edgeRules: [rule({ type: 'RunEdgeScript', parameter1: '8' })] },
    field: 'spec.edgeRules[run].action.parameter1',
  },
];

const OWNERS: { why: string; owner?: string; refused: boolean }[] = [
  { why: "another namespace's EdgeScript manages it: refused", owner: 'team-b', refused: true },
  {
    why: 'an EdgeScript of the same namespace manages it: allowed',
    owner: 'team-a',
    refused: false,
  },
  { why: 'no object manages it: allowed', refused: false },
];

for (const raw of RAW_IDS) {
  for (const o of OWNERS) {
    test(`a raw script id in ${raw.name}, ${o.why}`, (t) => {
      const obj = pzc(raw.spec);
      const refs = idReferencesOf(obj);
      t.deepEqual(refs, [{ field: raw.field, type: 'EdgeScript', id: '8' }]);
      const index = o.owner ? indexWithScript(o.owner) : new ClaimIndex();
      const foreign = findForeignReference(index, obj, refs, 'acct');
      t.is(foreign !== undefined, o.refused);
      t.is(foreign?.owner.namespace, o.refused ? o.owner : undefined);
    });
  }
}

test('a RunEdgeScript action by scriptRef is no id reference (its script is of this namespace)', (t) => {
  const obj = pzc({ edgeRules: [rule({ type: 'RunEdgeScript', scriptRef: { name: 'mw' } })] });
  t.deepEqual(idReferencesOf(obj), []);
});
