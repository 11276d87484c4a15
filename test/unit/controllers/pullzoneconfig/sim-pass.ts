/**
 * PullZoneExternal against an in-process cdn-sim for feature tests (edge rules, purge): the
 * external client, and one reconcile pass driven like the runtime's
 * (observe, then create or update, status merged).
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

/** One reconcile pass like the runtime's; returns the object with merged status. */
export async function runPass(
  ext: PullZoneExternal,
  obj: PullZoneConfig,
): Promise<{ obj: PullZoneConfig; obs: Observation }> {
  const id = obj.status?.pullZoneId;
  const ctx: ExternalContext = {
    ...(id !== undefined ? { externalId: String(id) } : {}),
    createPending: false,
    log: pino({ level: 'silent' }),
    signal: new AbortController().signal,
  };
  const obs = await ext.observe(obj, ctx);
  let status: ManagedStatus = { ...obj.status, ...obs.status };
  if (!obs.exists) {
    const created = await ext.create(obj, ctx);
    status = { ...status, ...created.status, pullZoneId: Number(created.externalId) };
  } else if (!obs.upToDate) {
    status = { ...status, ...((await ext.update(obj, obs, ctx)).status ?? {}) };
  }
  return { obj: { ...obj, status }, obs };
}
