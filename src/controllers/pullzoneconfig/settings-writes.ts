/**
 * Chooses how to apply differing settings: normally one `POST /pullzone/{id}` carrying only
 * the differing fields; when the only difference is one entry added to or removed from the
 * referrer or blocked-IP lists, the targeted endpoint instead (a smaller write that cannot
 * clobber concurrent list edits).
 */

/** One targeted list call. */
export interface ListCall {
  op:
    | 'addAllowedReferrer'
    | 'removeAllowedReferrer'
    | 'addBlockedReferrer'
    | 'removeBlockedReferrer'
    | 'addBlockedIp'
    | 'removeBlockedIp';
  value: string;
}

const LIST_OPS: Record<string, { add: ListCall['op']; remove: ListCall['op'] }> = {
  AllowedReferrers: { add: 'addAllowedReferrer', remove: 'removeAllowedReferrer' },
  BlockedReferrers: { add: 'addBlockedReferrer', remove: 'removeBlockedReferrer' },
  BlockedIps: { add: 'addBlockedIp', remove: 'removeBlockedIp' },
};

/** The writes for a set of differing settings. */
export type SettingsWrite =
  | { kind: 'none' }
  | { kind: 'update'; body: Record<string, unknown> }
  | { kind: 'list'; call: ListCall };

function asStrings(v: unknown): string[] {
  return Array.isArray(v) ? v.map(String) : [];
}

function singleListCall(api: string, desired: unknown, live: unknown): ListCall | undefined {
  const ops = LIST_OPS[api];
  if (!ops) return undefined;
  const want = new Set(asStrings(desired));
  const have = new Set(asStrings(live));
  const added = [...want].filter((v) => !have.has(v));
  const removed = [...have].filter((v) => !want.has(v));
  if (added.length === 1 && removed.length === 0) return { op: ops.add, value: added[0] as string };
  if (removed.length === 1 && added.length === 0)
    return { op: ops.remove, value: removed[0] as string };
  return undefined;
}

/**
 * `changed` holds the differing settings (wire form); `record` the live zone, used to tell
 * a one-entry list change from a larger one.
 */
export function chooseSettingsWrite(
  changed: Record<string, unknown>,
  record: Record<string, unknown>,
): SettingsWrite {
  const fields = Object.keys(changed);
  if (fields.length === 0) return { kind: 'none' };
  if (fields.length === 1) {
    const api = fields[0] as string;
    const call = singleListCall(api, changed[api], record[api]);
    if (call) return { kind: 'list', call };
  }
  return { kind: 'update', body: changed };
}
