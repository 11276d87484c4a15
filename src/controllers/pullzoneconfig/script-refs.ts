/**
 * References from a PullZoneConfig to EdgeScripts of its namespace, resolved at connect time to
 * the scripts' `status.scriptId` and added to the object before the external client sees it
 * (mapped-external.ts), so that the diff, the create body and the plan treat them like the raw
 * ids they stand for:
 *
 * - `spec.edgeScriptRef` (a Standalone script) is the zone's origin: `OriginType: EdgeScript`
 *   and `EdgeScriptId`, as `storageZoneRef` sets the storage origin;
 * - `spec.middlewareScriptRef` (a Middleware script) is `MiddlewareScriptId`;
 * - `scriptRef` on a `RunEdgeScript` edge rule action is its `parameter1`.
 *
 * While a script is missing, has no id yet or is being deleted the object waits (ReferenceNotReady) and nothing is
 * sent; the runtime's reference watch re-enqueues it when the EdgeScript changes. A script of the
 * wrong type, or of another account, is refused (InvalidSpec). A deleted object resolves nothing:
 * its deletion never waits for a script.
 */
import { TerminalError, WaitingError } from '../../runtime/errors.js';
import { isDeleting } from '../../runtime/finalizer.js';
import { ReadyReason, SyncedReason } from '../../runtime/reasons.js';
import type { ConnectContext, ManagedObject, ObjectReference } from '../../runtime/types.js';
import { EDGE_SCRIPT_NAMES } from '../edgescript/types.js';
import { resolveNamedRef } from '../kit/ref-or-id.js';
import { typeMetaOf } from '../kind-names.js';
import { ruleActions, type EdgeRuleActionSpec, type EdgeRuleSpec } from './edge-rules-mapping.js';
import type { PullZoneConfig } from './types.js';

/** A top-level script reference: its spec field, the settings it sets and the type it takes. */
interface ScriptRefField {
  ref: 'edgeScriptRef' | 'middlewareScriptRef';
  /** The setting holding the id (`settings.<setting>` must then be left out). */
  setting: string;
  /** Further settings the reference sets. */
  implies: Readonly<Record<string, unknown>>;
  scriptType: 'Standalone' | 'Middleware';
}

const SCRIPT_REF_FIELDS: readonly ScriptRefField[] = [
  {
    ref: 'edgeScriptRef',
    setting: 'edgeScriptId',
    implies: { originType: 'EdgeScript' },
    scriptType: 'Standalone',
  },
  {
    ref: 'middlewareScriptRef',
    setting: 'middlewareScriptId',
    implies: {},
    scriptType: 'Middleware',
  },
];

/** The status field of an EdgeScript that holds its platform id. */
const SCRIPT_ID = 'scriptId';

/** What the references resolve to. */
export interface ResolvedScripts {
  /** Settings (spec form) the top-level references set. */
  settings: Record<string, unknown>;
  /** Script id of each action with a `scriptRef`, by its spec path (actionPath). */
  actions: Map<string, number>;
}

/** A rule's actions with their spec paths below `spec.` (`edgeRules[name].action`). */
function actionsOf(rule: EdgeRuleSpec): Array<{ path: string; action: EdgeRuleActionSpec }> {
  return ruleActions(rule).map(({ path, action }) => ({
    path: `edgeRules[${rule.name}].${path}`,
    action,
  }));
}

/** Every action of the spec that names a script by `scriptRef`. */
function scriptRefActions(
  obj: PullZoneConfig,
): Array<{ path: string; action: EdgeRuleActionSpec }> {
  return (obj.spec?.edgeRules ?? [])
    .flatMap(actionsOf)
    .filter(({ action }) => action?.scriptRef !== undefined);
}

/** The EdgeScript of `obj`'s namespace named `name`, if it is a name. */
function scriptRefAt(obj: ManagedObject, name: unknown): ObjectReference | undefined {
  if (typeof name !== 'string' || name === '') return undefined;
  return { ...typeMetaOf(EDGE_SCRIPT_NAMES), namespace: obj.metadata.namespace, name };
}

/** The EdgeScripts the spec names (for the runtime's reference watch), each once. */
export function scriptReferences(obj: PullZoneConfig): ObjectReference[] {
  const names = new Set<string>();
  for (const f of SCRIPT_REF_FIELDS) {
    const name = obj.spec?.[f.ref]?.name;
    if (name) names.add(name);
  }
  for (const { action } of scriptRefActions(obj)) names.add(action.scriptRef?.name ?? '');
  return [...names].flatMap((name) => scriptRefAt(obj, name) ?? []);
}

/** The script type an EdgeScript has: as the platform reported it, else as its spec asks. */
function scriptTypeOf(script: ManagedObject): unknown {
  return script.status?.scriptType ?? script.spec?.scriptType;
}

function invalid(message: string): TerminalError {
  return new TerminalError(SyncedReason.InvalidSpec, message);
}

/**
 * The script a reference names, with its id: also waits while the EdgeScript is being deleted,
 * so that a pass between the platform's delete and the object's removal from the cache never
 * attaches the deleted script again.
 */
function resolveScript(
  obj: PullZoneConfig,
  field: string,
  ref: ObjectReference,
  getObject: ConnectContext['getObject'],
  account: string,
): { id: number; object: ManagedObject } {
  const found = resolveNamedRef(obj, { ref: field, statusId: SCRIPT_ID }, ref, getObject, account);
  if (!isDeleting(found.object)) return found;
  throw new WaitingError(
    ReadyReason.ReferenceNotReady,
    `cannot resolve spec.${field}: EdgeScript ${ref.namespace}/${ref.name} is being deleted`,
  );
}

/** The settings of one top-level reference (see the module comment for the errors). */
function resolveField(
  obj: PullZoneConfig,
  f: ScriptRefField,
  getObject: ConnectContext['getObject'],
  account: string,
): Record<string, unknown> {
  const ref = scriptRefAt(obj, obj.spec?.[f.ref]?.name);
  if (!ref) return {};
  const conflicts = [f.setting, ...Object.keys(f.implies)].filter(
    (k) => obj.spec?.settings?.[k] !== undefined && obj.spec.settings[k] !== null,
  );
  if (conflicts.length > 0) {
    throw invalid(
      `cannot use spec.${f.ref} together with ${conflicts.map((c) => `spec.settings.${c}`).join(' and ')}: the reference sets them; remove one of them`,
    );
  }
  const { id, object } = resolveScript(obj, f.ref, ref, getObject, account);
  const type = scriptTypeOf(object);
  if (type !== f.scriptType) {
    const other = SCRIPT_REF_FIELDS.find((x) => x.scriptType === type);
    throw invalid(
      `cannot use spec.${f.ref}: EdgeScript ${ref.namespace}/${ref.name} is a ${String(type)} script and spec.${f.ref} takes a ${f.scriptType} script${other ? ` (name it with spec.${other.ref})` : ''}`,
    );
  }
  return { ...f.implies, [f.setting]: id };
}

/** The id of the script an action's `scriptRef` names. */
function resolveAction(
  obj: PullZoneConfig,
  path: string,
  action: EdgeRuleActionSpec,
  getObject: ConnectContext['getObject'],
  account: string,
): number {
  const field = `${path}.scriptRef`;
  if (action.type !== 'RunEdgeScript' || action.parameter1 !== undefined) {
    throw invalid(
      `cannot use spec.${field}: only a RunEdgeScript action takes a scriptRef, instead of parameter1`,
    );
  }
  const ref = scriptRefAt(obj, action.scriptRef?.name) as ObjectReference;
  return resolveScript(obj, field, ref, getObject, account).id;
}

/**
 * The ids the spec's script references stand for, or undefined when it has none (or is being
 * deleted). Throws a WaitingError while a script has no id yet, a TerminalError for a script of
 * the wrong type or account and for a reference set together with what it sets.
 */
export function resolveScripts(
  obj: PullZoneConfig,
  getObject: ConnectContext['getObject'],
  account: string,
): ResolvedScripts | undefined {
  if (isDeleting(obj) || scriptReferences(obj).length === 0) return undefined;
  const settings: Record<string, unknown> = {};
  for (const f of SCRIPT_REF_FIELDS)
    Object.assign(settings, resolveField(obj, f, getObject, account));
  const actions = new Map<string, number>();
  for (const { path, action } of scriptRefActions(obj)) {
    actions.set(path, resolveAction(obj, path, action, getObject, account));
  }
  return { settings, actions };
}

/** An action with the script id in `parameter1` in place of its `scriptRef`. */
function withScriptId(
  path: string,
  action: EdgeRuleActionSpec,
  scripts: ResolvedScripts,
): EdgeRuleActionSpec {
  const id = scripts.actions.get(path);
  if (id === undefined) return action;
  const { scriptRef: _ref, ...rest } = action;
  return { ...rest, parameter1: String(id) };
}

function ruleWithScriptIds(rule: EdgeRuleSpec, scripts: ResolvedScripts): EdgeRuleSpec {
  const [main, ...extra] = actionsOf(rule).map(({ path, action }) =>
    withScriptId(path, action, scripts),
  );
  return {
    ...rule,
    action: main!,
    ...(rule.extraActions ? { extraActions: extra } : {}),
  };
}

/** `obj` with what its script references resolved to in its settings and edge rules. */
export function withScriptIds(obj: PullZoneConfig, scripts: ResolvedScripts): PullZoneConfig {
  const spec = obj.spec ?? {};
  return {
    ...obj,
    spec: {
      ...spec,
      ...(Object.keys(scripts.settings).length > 0
        ? { settings: { ...spec.settings, ...scripts.settings } }
        : {}),
      ...(spec.edgeRules
        ? { edgeRules: spec.edgeRules.map((r) => ruleWithScriptIds(r, scripts)) }
        : {}),
    },
  };
}
