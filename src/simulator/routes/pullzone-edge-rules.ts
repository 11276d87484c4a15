/**
 * Edge rules of a pull zone (`/pullzone/{pullZoneId}/edgerules/...`), stored in the record's
 * `EdgeRules` (EdgeRuleV2Model) so `GET /pullzone/{id}` shows them.
 *
 * Decisions where the official document is silent:
 * - addOrUpdate answers 201 with the created or updated rule, its Guid included: the document
 *   declares no body, but live clients read the rule from the answer (a contract exception);
 * - addOrUpdate with a Guid that is not on the zone is 404 (the operation's only not-found
 *   answer), never a silent create under the caller's Guid;
 * - a body that fails model binding is a 400 ApiErrorData, as on every other core write;
 * - `ReadOnly` is the platform's flag: a caller cannot set it, and a read-only rule cannot be
 *   changed or deleted (400 `pullzone.edgerule_read_only`);
 * - rules are kept sorted by `OrderIndex` (stable for equal indexes), the execution order.
 */
import { randomUUID } from 'node:crypto';
import { apiError, emptyStatus } from '../errors.js';
import type { StoredPullZone } from '../state.js';
import type { JsonObject, RouteDef, SimContext, SimRequest, SimResponse } from '../types.js';
import { checkCoreModel, type CoreModel } from './core-schema.js';
import { badRequest, parseId } from './pullzone-common.js';

type RuleAction = (zone: StoredPullZone, req: SimRequest, ctx: SimContext) => SimResponse;

/** Validates the body (model binding precedes the lookup), then finds the zone. */
function withZone(model: CoreModel | undefined, action: RuleAction) {
  return (req: SimRequest, ctx: SimContext): SimResponse => {
    if (model) {
      const problem = checkCoreModel(model, req.body);
      if (problem) return badRequest(problem);
    }
    const id = parseId(req.params.pullZoneId);
    const zone = id === undefined ? undefined : ctx.state.pullZones.get(id);
    if (!zone) return emptyStatus(404);
    const response = action(zone, req, ctx);
    if (response.status < 300) ctx.state.touch();
    return response;
  };
}

/** The zone's rule list (created on first use for records restored from old state). */
export function edgeRulesOf(zone: StoredPullZone): JsonObject[] {
  if (!Array.isArray(zone.record.EdgeRules)) zone.record.EdgeRules = [];
  return zone.record.EdgeRules as JsonObject[];
}

function normalizeTrigger(t: JsonObject): JsonObject {
  return {
    Type: t.Type ?? 0,
    PatternMatches: t.PatternMatches ?? [],
    PatternMatchingType: t.PatternMatchingType ?? 0,
    Parameter1: t.Parameter1 ?? null,
  };
}

function normalizeAction(a: JsonObject): JsonObject {
  return {
    ActionType: a.ActionType ?? 0,
    ActionParameter1: a.ActionParameter1 ?? null,
    ActionParameter2: a.ActionParameter2 ?? null,
    ActionParameter3: a.ActionParameter3 ?? null,
  };
}

/** A stored rule from a validated body: absent values take the model's defaults. */
function normalizeRule(guid: string, body: JsonObject): JsonObject {
  return {
    Guid: guid,
    ...normalizeAction(body),
    Triggers: ((body.Triggers as JsonObject[] | null) ?? []).map(normalizeTrigger),
    ExtraActions: ((body.ExtraActions as JsonObject[] | null) ?? []).map(normalizeAction),
    TriggerMatchingType: body.TriggerMatchingType ?? 0,
    Description: body.Description ?? '',
    Enabled: body.Enabled ?? false,
    OrderIndex: body.OrderIndex ?? 0,
    ReadOnly: false,
  };
}

function readOnly(guid: string): SimResponse {
  return apiError(
    400,
    'pullzone.edgerule_read_only',
    'Guid',
    `Edge rule ${guid} is read-only and cannot be changed`,
  );
}

function sortRules(zone: StoredPullZone): void {
  const indexed = edgeRulesOf(zone).map((rule, i) => ({ rule, i }));
  indexed.sort((a, b) => Number(a.rule.OrderIndex) - Number(b.rule.OrderIndex) || a.i - b.i);
  zone.record.EdgeRules = indexed.map((x) => x.rule);
}

function findRule(zone: StoredPullZone, guid: string): JsonObject | undefined {
  const wanted = guid.toLowerCase();
  return edgeRulesOf(zone).find((r) => String(r.Guid).toLowerCase() === wanted);
}

const addOrUpdate: RuleAction = (zone, req) => {
  const body = req.body as JsonObject;
  const guid = typeof body.Guid === 'string' && body.Guid !== '' ? body.Guid : undefined;
  let rule: JsonObject;
  if (guid === undefined) {
    rule = normalizeRule(randomUUID(), body);
    edgeRulesOf(zone).push(rule);
  } else {
    const existing = findRule(zone, guid);
    if (!existing) return emptyStatus(404);
    if (existing.ReadOnly === true) return readOnly(guid);
    rule = Object.assign(existing, normalizeRule(String(existing.Guid), body));
  }
  sortRules(zone);
  return { status: 201, body: structuredClone(rule) };
};

const deleteRule: RuleAction = (zone, req) => {
  const guid = req.params.edgeRuleId ?? '';
  const existing = findRule(zone, guid);
  if (!existing) return emptyStatus(404);
  if (existing.ReadOnly === true) return readOnly(guid);
  zone.record.EdgeRules = edgeRulesOf(zone).filter((r) => r !== existing);
  return emptyStatus(204);
};

const setEnabled: RuleAction = (zone, req) => {
  const guid = req.params.edgeRuleId ?? '';
  const existing = findRule(zone, guid);
  if (!existing) return emptyStatus(404);
  if (existing.ReadOnly === true) return readOnly(guid);
  existing.Enabled = (req.body as JsonObject).Value === true;
  return emptyStatus(204);
};

const PREFIX = '/pullzone/{pullZoneId}/edgerules';

/** Edge rule routes. */
export const EDGE_RULE_ROUTES: RouteDef[] = [
  {
    method: 'POST',
    template: `${PREFIX}/addOrUpdate`,
    area: 'core',
    handler: withZone('EdgeRuleV2Model', addOrUpdate),
  },
  {
    method: 'DELETE',
    template: `${PREFIX}/{edgeRuleId}`,
    area: 'core',
    handler: withZone(undefined, deleteRule),
  },
  {
    method: 'POST',
    template: `${PREFIX}/{edgeRuleId}/setEdgeRuleEnabled`,
    area: 'core',
    handler: withZone('ToggleRequestModel', setEnabled),
  },
];
