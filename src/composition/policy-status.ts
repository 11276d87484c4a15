/**
 * The status of a CdnPolicy (pure): `Accepted` (every target taken, every hostname published,
 * every zone usable; False names the first refusal), `Ready` (every generated object reports
 * Ready=True), the Gateway API `ancestors` (one PolicyAncestorStatus per target) and the list of
 * generated objects. Conditions keep their transition time while unchanged (setConditions), so
 * an unchanged outcome gives an equal status and no write.
 */
import type { Composition } from '../controllers/cdnpolicy/compose.js';
import { CdnPolicyReason } from '../controllers/cdnpolicy/reasons.js';
import type {
  CdnPolicy,
  CdnPolicyStatus,
  GeneratedObjectStatus,
} from '../controllers/cdnpolicy/types.js';
import { setConditions, type ConditionInput } from '../runtime/conditions.js';

/** The controller name in `status.ancestors[].controllerName`. */
export const CONTROLLER_NAME = 'cdn.operator.io/routes';

function acceptedOf(c: Composition): ConditionInput {
  const first = c.refusals[0];
  if (first)
    return {
      type: 'Accepted',
      status: 'False',
      reason: first.reason,
      message: c.refusals.map((r) => r.message).join('; '),
    };
  return {
    type: 'Accepted',
    status: 'True',
    reason: CdnPolicyReason.Accepted,
    message: `${c.targets.length} target(s) taken`,
  };
}

function readyOf(
  c: Composition,
  generated: readonly GeneratedObjectStatus[],
  applyError?: string,
): ConditionInput {
  if (applyError)
    return {
      type: 'Ready',
      status: 'False',
      reason: CdnPolicyReason.ApplyFailed,
      message: applyError,
    };
  if (c.pending.length > 0)
    return {
      type: 'Ready',
      status: 'False',
      reason: CdnPolicyReason.AddressPending,
      message: `no address reported yet for ${c.pending.join(', ')}`,
    };
  const waiting = generated.filter((g) => !g.ready);
  if (waiting.length > 0)
    return {
      type: 'Ready',
      status: 'False',
      reason: CdnPolicyReason.Progressing,
      message: `not Ready yet: ${waiting.map((g) => `${g.kind} ${g.name}`).join(', ')}`,
    };
  return {
    type: 'Ready',
    status: 'True',
    reason: CdnPolicyReason.Ready,
    message: `${generated.length} object(s) Ready`,
  };
}

/** The status `policy` should have after a pass that composed `c`. */
export function policyStatus(
  policy: CdnPolicy,
  c: Composition,
  generated: GeneratedObjectStatus[],
  now: Date,
  applyError?: string,
): CdnPolicyStatus {
  const current = policy.status ?? {};
  const generation = policy.metadata.generation;
  const gen = generation === undefined ? {} : { observedGeneration: generation };
  const conditions = [acceptedOf(c), readyOf(c, generated, applyError)].map((x) => ({
    ...x,
    ...gen,
  }));
  const ancestors = c.targets.map((t) => {
    const before = current.ancestors?.find(
      (a) => a.ancestorRef.kind === t.ref.kind && a.ancestorRef.name === t.ref.name,
    );
    const accepted: ConditionInput = {
      type: 'Accepted',
      status: t.accepted ? 'True' : 'False',
      reason: t.reason,
      message: t.message,
      ...gen,
    };
    return {
      ancestorRef: t.ref,
      controllerName: CONTROLLER_NAME,
      conditions: setConditions(before?.conditions, [accepted], now),
    };
  });
  return {
    ...gen,
    conditions: setConditions(current.conditions, conditions, now),
    ancestors,
    generated,
  };
}
