/**
 * PullZoneExternal against an in-process cdn-sim: the external client, the context of one call,
 * and one reconcile pass driven like the runtime's (observe, then create or update, status
 * merged).
 */
import { pino } from 'pino';
import type { CdnClient } from '../../../../src/cdn/client.js';
import { PullZoneExternal } from '../../../../src/controllers/pullzoneconfig/external.js';
import type { PullZoneConfig } from '../../../../src/controllers/pullzoneconfig/types.js';
import type { ExternalContext, ManagedStatus, Observation } from '../../../../src/runtime/types.js';

/** The external client of `client`'s account; `now` is its clock. */
export function simExternal(client: CdnClient, now: () => Date): PullZoneExternal {
  return new PullZoneExternal({
    client,
    accountId: 'acct',
    secrets: { settings: new Map(), tls: new Map() },
    now,
  });
}

/** The context of one ExternalClient call: silent log, never aborted. */
export function ctxOf(externalId?: string): ExternalContext {
  return {
    ...(externalId !== undefined ? { externalId } : {}),
    createPending: false,
    log: pino({ level: 'silent' }),
    signal: new AbortController().signal,
  };
}

/**
 * One reconcile pass like the runtime's (the id from the spec, else the status); returns the
 * object with merged status and the observation.
 */
export async function runPass(
  ext: PullZoneExternal,
  obj: PullZoneConfig,
): Promise<{ obj: PullZoneConfig; obs: Observation }> {
  const id = obj.spec?.adoption?.id ?? obj.status?.pullZoneId;
  const ctx = ctxOf(id !== undefined ? String(id) : undefined);
  const obs = await ext.observe(obj, ctx);
  let status: ManagedStatus = { ...obj.status, ...obs.status };
  if (!obs.exists) {
    const created = await ext.create(obj, ctx);
    status = { ...status, ...created.status, pullZoneId: Number(created.externalId) };
  } else if (!obs.upToDate) {
    status = { ...status, ...((await ext.update(obj, obs, ctx))?.status ?? {}) };
  }
  return { obj: { ...obj, status }, obs };
}
