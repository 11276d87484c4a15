/**
 * Wiring of the ShieldPolicy kind: credentials, target resolution, the shared fleet cache and
 * error classification around the external client in external.ts.
 */
import { accountIdFor } from '../../cdn/credentials.js';
import type { ClassifiedError } from '../../runtime/errors.js';
import { DEFAULT_TIMINGS, pollIntervalOf } from '../../runtime/reconciler.js';
import type { ClaimRef, ManagedKind, ObjectReference } from '../../runtime/types.js';
import { classifyCdnError } from '../shared/classify-error.js';
import { getCdnClient } from '../shared/client-pool.js';
import { credentialReferences, resolveApiKey } from '../shared/credentials.js';
import { withMarkerKey } from '../shared/marker-key.js';
import { parseIntegerId } from '../shared/platform-id.js';
import type { ControllerDeps } from '../shared/deps.js';
import {
  createShieldExternal,
  createShieldShared,
  type ShieldApi,
  type ShieldShared,
} from './external.js';
import { customPageReferences, resolveCustomPages } from './custom-page-refs.js';
import {
  PlanLimitError,
  PlanLimitExceeded,
  PlanNotSufficientError,
  PlanNotSufficient,
} from './plan-limits.js';
import { RuleOverrideError } from './rule-overrides.js';
import { CuratedListError } from './curated-lists.js';
import { RuleDeleteRefused, RuleDeleteRefusedError } from './rule-sweep-sync.js';
import { idReferencesOf, pullZoneConfigRef, resolvePullZoneId } from './target.js';
import { managedNames } from '../kind-names.js';
import { SHIELD_POLICY_NAMES, SHIELD_ZONE_CLAIM, type ShieldPolicy } from './types.js';
import type { KindPart } from '../kit/kind-parts.js';

/** Options for tests: replace the API client or share state. */
export interface ShieldPolicyKindOptions {
  /** Builds the API client for an API key (default: the shared client pool). */
  apiFor?: (apiKey: string) => ShieldApi;
  shared?: ShieldShared;
  /** Poll interval when the object has no annotation (default: the runtime's, 10 min). */
  defaultPollIntervalMs?: number;
}

/** Claim type of a policy's pull zone: two policies on one zone fight, so one zone has one policy. */
export const SHIELD_CLAIM = 'ShieldPolicy';

/** The pull zone claim of a policy targeting `pullZoneId` (recorded when its status says so). */
function zoneClaim(obj: ShieldPolicy, pullZoneId: number): ClaimRef {
  return {
    type: SHIELD_CLAIM,
    id: String(pullZoneId),
    recorded: parseIntegerId(obj.status?.pullZoneId) === pullZoneId,
  };
}

/**
 * Claims known from the object alone: `spec.pullZoneId`, else the zone recorded in status.
 * A target named through `spec.pullZoneRef` is claimed once connected (`client.claims`).
 * The shield zone recorded in status is claimed too (`ShieldZone`), so that the shield rule
 * kinds can refuse a zone managed from another namespace.
 */
export function shieldClaimsOf(obj: ShieldPolicy): ClaimRef[] {
  const id = parseIntegerId(obj.spec?.pullZoneId) ?? parseIntegerId(obj.status?.pullZoneId);
  const shieldZoneId = parseIntegerId(obj.status?.shieldZoneId);
  return [
    ...(id === undefined ? [] : [zoneClaim(obj, id)]),
    ...(shieldZoneId === undefined
      ? []
      : [{ type: SHIELD_ZONE_CLAIM, id: String(shieldZoneId), recorded: true }]),
  ];
}

/**
 * Classifies ShieldPolicy errors: plan limits, plan refusals, refused rule overrides, held-back
 * curated access lists and deletions `rulePolicy: Exact` the platform refused are rechecked
 * every poll interval (the plan may be upgraded, the platform's rules may change).
 */
export function classifyShieldError(err: unknown): ClassifiedError {
  if (err instanceof RuleOverrideError || err instanceof CuratedListError) {
    return {
      class: 'retryable',
      reason: err.reason,
      message: err.message,
      ...(err.retryAfterMs !== undefined ? { retryAfterMs: err.retryAfterMs } : {}),
    };
  }
  if (err instanceof RuleDeleteRefusedError) {
    return {
      class: 'retryable',
      reason: RuleDeleteRefused,
      message: err.message,
      retryAfterMs: err.retryAfterMs,
    };
  }
  if (err instanceof PlanLimitError || err instanceof PlanNotSufficientError) {
    return {
      class: 'retryable',
      reason: err instanceof PlanLimitError ? PlanLimitExceeded : PlanNotSufficient,
      message: err.message,
      ...(err.retryAfterMs !== undefined ? { retryAfterMs: err.retryAfterMs } : {}),
    };
  }
  return classifyCdnError(err);
}

/** The ShieldPolicy kind's controller. */
export function createShieldPolicyKind(
  deps: ControllerDeps,
  options: ShieldPolicyKindOptions = {},
): ManagedKind<ShieldPolicy> {
  const shared: ShieldShared = options.shared ?? createShieldShared();
  const apiFor = options.apiFor ?? ((key: string): ShieldApi => getCdnClient(deps, key));
  // ControllerDeps may carry the operator-wide --poll-interval (when main.ts passes it).
  const fromDeps = deps.pollIntervalMs;
  const defaultPoll = options.defaultPollIntervalMs ?? fromDeps ?? DEFAULT_TIMINGS.pollIntervalMs;
  return {
    ...managedNames(SHIELD_POLICY_NAMES),
    idStatusField: 'shieldZoneId',
    async connect(obj, ctx) {
      const pullZoneId = resolvePullZoneId(obj, (ref) => ctx.getObject(ref));
      const apiKey = await resolveApiKey(obj, ctx, deps);
      const pages = await resolveCustomPages(obj, ctx);
      const external = createShieldExternal({
        api: apiFor(apiKey),
        account: `${deps.apiBaseUrl}#${accountIdFor(apiKey)}`,
        pullZoneId,
        pollIntervalMs: pollIntervalOf(obj, defaultPoll, ctx.log),
        shared,
        pages,
      });
      const claims = pullZoneId === undefined ? [] : [zoneClaim(obj, pullZoneId)];
      return withMarkerKey({ ...external, account: accountIdFor(apiKey), claims }, apiKey);
    },
    claimsOf: shieldClaimsOf,
    idReferences: idReferencesOf,
    references(obj): ObjectReference[] {
      const refs: ObjectReference[] = credentialReferences(obj, deps);
      const zone = pullZoneConfigRef(obj);
      if (zone) refs.push(zone);
      refs.push(...customPageReferences(obj));
      return refs;
    },
    classifyError: classifyShieldError,
  };
}

/** The kind's controller, under its part's name (kit/kind-parts.ts). */
export const controller: KindPart<'controller'> = createShieldPolicyKind;
