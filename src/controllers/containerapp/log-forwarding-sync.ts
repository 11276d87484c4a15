/**
 * The platform side of `spec.logForwarding` (pure rules in log-forwarding.ts): one read
 * (`GET /mc/log/forwarding/{appId}`, only while the spec has the block or status records a
 * managed configuration) and at most one write per pass: `POST` when the application has none,
 * `PUT` when a member or the token differs, `DELETE` when the block was removed. The token
 * leaves this module only in a request body (the client registers it as a secret) or as the
 * value the client compares the platform's with in memory.
 */
import type { CdnClient } from '../../cdn/client.js';
import { isCdnApiError } from '../../cdn/errors.js';
import type { ExternalContext } from '../../runtime/types.js';
import { mapWriteErrors } from './errors.js';
import {
  desiredLogForwarding,
  logForwardingStatusOf,
  planLogForwarding,
  recordedLogForwarding,
  toLogForwardingRequest,
  tokenFingerprint,
  type LogForwardingPlan,
} from './log-forwarding.js';
import type { ContainerApp, LogForwardingStatus } from './types.js';

/** The client calls this module makes. */
export type LogForwardingApi = Pick<
  CdnClient,
  'getLogForwarding' | 'createLogForwarding' | 'replaceLogForwarding' | 'deleteLogForwarding'
>;

const MEMBERS = new Set(['enabled', 'type', 'endpoint', 'port', 'format']);

/** Spec path of a field the platform names in an error about a sent configuration. */
export function logForwardingSpecPath(apiField: string): string {
  const member = apiField.charAt(0).toLowerCase() + apiField.slice(1);
  if (MEMBERS.has(member)) return `spec.logForwarding.${member}`;
  if (member === 'token') return 'spec.logForwarding.tokenSecretRef';
  return 'spec.logForwarding';
}

/**
 * Reads the application's configuration when this object has anything to say about it and
 * plans the one write; undefined when the spec has no block and status records none (nothing
 * is read then).
 */
export async function observeLogForwarding(
  api: LogForwardingApi,
  obj: ContainerApp,
  appId: string,
  token: string | undefined,
  ctx: Pick<ExternalContext, 'signal'>,
): Promise<LogForwardingPlan | undefined> {
  const desired = desiredLogForwarding(obj.spec, token);
  const recorded = recordedLogForwarding(obj, appId);
  if (!desired && !recorded) return undefined;
  const compare = desired?.token !== undefined ? { compareToken: desired.token } : {};
  const live = await api.getLogForwarding(appId, { signal: ctx.signal, ...compare });
  return planLogForwarding({
    desired,
    live,
    recorded,
    fingerprint: (t) => tokenFingerprint(obj.metadata.uid, t),
  });
}

/**
 * Makes the planned write; returns `status.logForwarding` afterwards (undefined once deleted).
 * A platform error names the spec path and never the token.
 */
export async function applyLogForwarding(
  api: LogForwardingApi,
  obj: ContainerApp,
  appId: string,
  plan: LogForwardingPlan,
  ctx: Pick<ExternalContext, 'signal' | 'log'>,
): Promise<LogForwardingStatus | undefined> {
  const opts = { signal: ctx.signal };
  if (plan.action === 'delete') {
    await mapWriteErrors(() => deleteUnlessGone(api, appId, opts), logForwardingSpecPath, []);
    ctx.log.info({ appId }, 'Deleted log forwarding');
    return undefined;
  }
  const d = plan.desired;
  if (plan.action === 'none' || !d) return plan.status;
  const body = toLogForwardingRequest(appId, d);
  const secrets = d.token !== undefined ? [d.token] : [];
  const answer = await mapWriteErrors(
    () =>
      plan.action === 'create'
        ? api.createLogForwarding(body, opts)
        : api.replaceLogForwarding(appId, body, opts),
    logForwardingSpecPath,
    secrets,
  );
  ctx.log.info(
    { appId, fields: plan.diffs.map((x) => x.field) },
    plan.action === 'create' ? 'Created log forwarding' : 'Replaced log forwarding',
  );
  const fingerprint =
    d.token !== undefined ? tokenFingerprint(obj.metadata.uid, d.token) : undefined;
  return logForwardingStatusOf(answer, fingerprint);
}

async function deleteUnlessGone(
  api: LogForwardingApi,
  appId: string,
  opts: { signal: AbortSignal },
): Promise<void> {
  try {
    await api.deleteLogForwarding(appId, opts);
  } catch (err) {
    if (isCdnApiError(err) && err.kind === 'notFound') return;
    throw err;
  }
}
