/**
 * Environment variables (`spec.env`): each a literal `value` or the value of a ConfigMap key
 * (`valueFrom.configMapKeyRef`), sent as the platform variable's `DefaultValue`. While
 * `spec.env` is absent the script's variables are not managed; once set (even empty) the
 * script holds exactly the listed ones: a differing or missing one is upserted by name
 * (`PUT .../variables`), one the spec does not list is deleted. Nothing is read or sent for an
 * equal variable. Values are shown in plans (they are configuration: secrets have their own
 * endpoints, not built yet).
 */
import type { EdgeScriptVariable, EdgeScriptVariableUpsert } from '../../cdn/edge-script-types.js';
import type { ConnectContext, FieldDiff, ObjectReference } from '../../runtime/types.js';
import { renderValue } from '../shared/plan.js';
import { readKeyRef } from '../shared/key-ref.js';
import type { EdgeScript, EdgeScriptEnvVar } from './types.js';

/** The variable calls an update makes. */
export interface VariablePlan {
  upsert: EdgeScriptVariableUpsert[];
  /** Ids of the variables to delete. */
  remove: number[];
}

/** The ConfigMaps the variables read: a change re-enqueues the object. */
export function envConfigMapReferences(obj: EdgeScript): ObjectReference[] {
  const names = new Set(
    (obj.spec?.env ?? []).flatMap((v) => v.valueFrom?.configMapKeyRef?.name ?? []),
  );
  const namespace = obj.metadata.namespace;
  return [...names].map((name) => ({ apiVersion: 'v1', kind: 'ConfigMap', namespace, name }));
}

async function valueOf(
  obj: EdgeScript,
  v: EdgeScriptEnvVar,
  ctx: Pick<ConnectContext, 'readConfigMap'>,
): Promise<string> {
  const ref = v.valueFrom?.configMapKeyRef;
  if (!ref) return v.value ?? '';
  return readKeyRef(ctx.readConfigMap, {
    kind: 'ConfigMap',
    namespace: obj.metadata.namespace,
    ref,
    field: `spec.env[${v.name}]`,
  });
}

/** The variables the spec wants, by name (undefined: not managed). */
export async function wantedVariables(
  obj: EdgeScript,
  ctx: Pick<ConnectContext, 'readConfigMap'>,
): Promise<EdgeScriptVariableUpsert[] | undefined> {
  const env = obj.spec?.env;
  if (env === undefined) return undefined;
  const out: EdgeScriptVariableUpsert[] = [];
  for (const v of env) {
    out.push({
      Name: v.name,
      DefaultValue: await valueOf(obj, v, ctx),
      Required: v.required ?? false,
    });
  }
  return out;
}

/** A variable as a plan shows it: its value, and whether it is required. */
function shown(v: EdgeScriptVariable | EdgeScriptVariableUpsert | undefined): string {
  if (!v) return renderValue(undefined);
  return `${renderValue(v.DefaultValue ?? '')}${v.Required === true ? ' (required)' : ''}`;
}

/** True when the live variable is the wanted one. */
function sameVariable(live: EdgeScriptVariable, wanted: EdgeScriptVariableUpsert): boolean {
  return (
    (live.DefaultValue ?? '') === (wanted.DefaultValue ?? '') &&
    (live.Required ?? false) === (wanted.Required ?? false)
  );
}

/** What differs between the live variables and the wanted ones, with the plan's entries. */
export function planVariables(
  live: readonly EdgeScriptVariable[],
  wanted: readonly EdgeScriptVariableUpsert[],
): { plan: VariablePlan; diffs: FieldDiff[] } {
  const byName = new Map(live.map((v) => [v.Name ?? '', v]));
  const plan: VariablePlan = { upsert: [], remove: [] };
  const diffs: FieldDiff[] = [];
  for (const w of wanted) {
    const l = byName.get(w.Name);
    if (l && sameVariable(l, w)) continue;
    plan.upsert.push(w);
    diffs.push({ field: `env[${w.Name}]`, live: shown(l), desired: shown(w) });
  }
  const names = new Set(wanted.map((w) => w.Name));
  for (const l of live) {
    if (names.has(l.Name ?? '') || l.Id === undefined) continue;
    plan.remove.push(l.Id);
    diffs.push({ field: `env[${l.Name}]`, live: shown(l), desired: shown(undefined) });
  }
  return { plan, diffs };
}
