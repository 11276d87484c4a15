/**
 * The script's secrets (`spec.secrets`): each the value of one key of a Secret of the object's
 * namespace (`valueFrom.secretKeyRef`), read through the ConnectContext (which registers the
 * value for redaction) and watched: an edit re-enqueues the object.
 *
 * The platform never returns a secret's value, only its id, name and `LastModified`. So status
 * keeps, per secret, the value's fingerprint (shared/secret-fingerprint.ts: salted with the
 * object's uid, like a ContainerRegistry's password) and the `LastModified` the platform showed
 * after it was written. A secret is upserted by name (`PUT .../secrets`, one call each) when:
 *
 * - the script does not have it;
 * - the Secret's fingerprint is not the recorded one (a rotated Secret);
 * - its `LastModified` is not the recorded one (set on the platform by someone else).
 *
 * A secret the script has and status does not record (an adopted script, a secret just added to
 * the spec under a name the script already has) is taken as holding the Secret's value: its
 * fingerprint and `LastModified` are recorded and nothing is sent, as for an adopted registry's
 * password (an export applied elsewhere then writes nothing). Like `spec.env`: while
 * `spec.secrets` is absent the script's secrets are not managed (not even read); once set (even
 * empty) one the list does not name is deleted. Plans show `<redacted>`, never a value.
 */
import type { CdnClient } from '../../cdn/client.js';
import type { EdgeScriptSecret, EdgeScriptSecretWrite } from '../../cdn/edge-script-types.js';
import type { ConnectContext, FieldDiff, ObjectReference } from '../../runtime/types.js';
import type { CrudDiff } from '../kit/crud-external.js';
import { REDACTED, UNSET } from '../shared/plan.js';
import { fingerprintSecretValue } from '../shared/secret-fingerprint.js';
import { readKeyRef } from '../shared/key-ref.js';
import type { EdgeScript, EdgeScriptSecretRef, SecretStatus } from './types.js';

/** A secret the spec wants: its name, value and the value's fingerprint. */
export interface WantedSecret {
  name: string;
  value: string;
  fingerprint: string;
}

/**
 * The secret calls of an update and the status they leave: `applied` lists every wanted
 * secret's fingerprint (its `lastModified` is the platform's, filled in after the calls).
 */
export interface SecretPlan {
  upsert: EdgeScriptSecretWrite[];
  /** Ids of the secrets to delete. */
  remove: number[];
  applied: SecretStatus[];
}

/** The Secrets the secrets read: a change (a rotation) re-enqueues the object. */
export function secretReferences(obj: EdgeScript): ObjectReference[] {
  const names = new Set(
    (obj.spec?.secrets ?? []).flatMap((s) => s.valueFrom?.secretKeyRef?.name ?? []),
  );
  const namespace = obj.metadata.namespace;
  return [...names].map((name) => ({ apiVersion: 'v1', kind: 'Secret', namespace, name }));
}

/** The fingerprint of secret `name`'s `value` for the object `uid`. */
export function secretFingerprint(uid: string | undefined, name: string, value: string): string {
  return fingerprintSecretValue(`edgescript/secret/${name}`, uid, value);
}

async function valueOf(
  obj: EdgeScript,
  s: EdgeScriptSecretRef,
  ctx: Pick<ConnectContext, 'readSecret'>,
): Promise<string> {
  // The message names the field, the Secret and the key, never a value.
  return readKeyRef(ctx.readSecret, {
    kind: 'Secret',
    namespace: obj.metadata.namespace,
    ref: s.valueFrom.secretKeyRef,
    field: `spec.secrets[${s.name}]`,
  });
}

/** The secrets the spec wants (undefined: not managed); WaitingError while one is missing. */
export async function wantedSecrets(
  obj: EdgeScript,
  ctx: Pick<ConnectContext, 'readSecret'>,
): Promise<WantedSecret[] | undefined> {
  const secrets = obj.spec?.secrets;
  if (secrets === undefined) return undefined;
  const out: WantedSecret[] = [];
  for (const s of secrets) {
    const value = await valueOf(obj, s, ctx);
    out.push({
      name: s.name,
      value,
      fingerprint: secretFingerprint(obj.metadata.uid, s.name, value),
    });
  }
  return out;
}

/**
 * The secrets the spec names, without their values (`cdnctl diff` reads no Secret): a secret
 * the script lacks or one it has and the list does not name still shows; a value is never
 * compared (there is none to compare), so a rotation does not show either.
 */
export function namedSecrets(obj: EdgeScript): WantedSecret[] | undefined {
  return obj.spec?.secrets?.map((s) => ({ name: s.name, value: '', fingerprint: '' }));
}

/** Why a secret the script has is sent again, or undefined when it holds the wanted value. */
function staleness(
  live: EdgeScriptSecret,
  wanted: WantedSecret,
  recorded: SecretStatus | undefined,
): string | undefined {
  if (recorded === undefined) return undefined;
  if (recorded.fingerprint !== wanted.fingerprint) return 'rotated';
  const changed =
    recorded.lastModified !== undefined && recorded.lastModified !== live.LastModified;
  return changed ? 'changed on the platform' : undefined;
}

/** The status entry of a secret the script holds. */
function statusEntry(wanted: WantedSecret, lastModified: string | undefined): SecretStatus {
  return {
    name: wanted.name,
    fingerprint: wanted.fingerprint,
    ...(lastModified ? { lastModified } : {}),
  };
}

/** The plan of {@link planSecrets}: the calls, the plan's entries and what status keeps. */
export interface SecretComparison {
  plan: SecretPlan;
  diffs: FieldDiff[];
  /**
   * status.secrets while nothing is sent: a secret in sync with its fingerprint and
   * `LastModified`, one to send with what was recorded (so a failed upsert is tried again).
   */
  observed: SecretStatus[];
}

/** Adds wanted secret `w` to `out`: in sync (its status entry), or an upsert. */
function planWanted(
  out: SecretComparison,
  w: WantedSecret,
  live: EdgeScriptSecret | undefined,
  record: SecretStatus | undefined,
): void {
  out.plan.applied.push(statusEntry(w, undefined));
  const why = live ? staleness(live, w, record) : 'missing';
  if (live && why === undefined) {
    out.observed.push(statusEntry(w, live.LastModified));
    return;
  }
  if (record) out.observed.push(record);
  out.plan.upsert.push({ Name: w.name, Secret: w.value });
  const shown = live ? REDACTED : UNSET;
  out.diffs.push({ field: `secrets[${w.name}]`, live: shown, desired: `${REDACTED} (${why})` });
}

/**
 * What differs between the script's secrets and the wanted ones, with the plan's entries (never
 * a value). `recorded`: status.secrets.
 */
export function planSecrets(
  live: readonly EdgeScriptSecret[],
  wanted: readonly WantedSecret[],
  recorded: readonly SecretStatus[] = [],
): SecretComparison {
  const byName = new Map(live.map((s) => [s.Name ?? '', s]));
  const records = new Map(recorded.map((r) => [r.name, r]));
  const out: SecretComparison = {
    plan: { upsert: [], remove: [], applied: [] },
    diffs: [],
    observed: [],
  };
  for (const w of wanted) planWanted(out, w, byName.get(w.name), records.get(w.name));
  const names = new Set(wanted.map((w) => w.name));
  for (const l of live) {
    if (names.has(l.Name ?? '') || l.Id === undefined) continue;
    out.plan.remove.push(l.Id);
    out.diffs.push({ field: `secrets[${l.Name}]`, live: REDACTED, desired: UNSET });
  }
  return out;
}

/** status.secrets after the calls of `plan`: each wanted secret with its live `LastModified`. */
export function appliedSecretStatus(
  plan: SecretPlan,
  live: readonly EdgeScriptSecret[] | undefined,
): SecretStatus[] {
  const byName = new Map((live ?? []).map((s) => [s.Name ?? '', s.LastModified]));
  return plan.applied.map((a) => {
    const lastModified = byName.get(a.name);
    return { ...a, ...(lastModified ? { lastModified } : {}) };
  });
}

/** A script record with its secrets (read only while `spec.secrets` is set). */
export interface WithSecrets {
  secrets?: readonly EdgeScriptSecret[];
}

/**
 * The comparison with the secret entries added: the plan's entries, the update body's
 * `secrets` member (the calls, sent by {@link sendSecrets}) and status.secrets. `wanted`
 * undefined: not managed.
 */
export function compareSecrets(
  obj: EdgeScript,
  record: WithSecrets,
  diff: CrudDiff,
  wanted: readonly WantedSecret[] | undefined,
): CrudDiff {
  if (wanted === undefined) return diff;
  const { plan, diffs, observed } = planSecrets(record.secrets ?? [], wanted, obj.status?.secrets);
  const status = { ...diff.status, secrets: observed };
  if (diffs.length === 0) return { ...diff, status };
  return {
    ...diff,
    diffs: [...diff.diffs, ...diffs],
    update: { ...diff.update, secrets: plan },
    status,
  };
}

/** The secret calls of an update: upserts by name, then deletions. */
export async function sendSecrets(
  client: Pick<CdnClient, 'upsertEdgeScriptSecret' | 'deleteEdgeScriptSecret'>,
  id: number,
  plan: SecretPlan,
  signal: AbortSignal,
): Promise<void> {
  for (const s of plan.upsert) await client.upsertEdgeScriptSecret(id, s, { signal });
  for (const secretId of plan.remove) await client.deleteEdgeScriptSecret(id, secretId, { signal });
}

/** status.secrets after an update that sent `sent.secrets` (absent: none sent). */
export function sentSecretStatus(
  record: WithSecrets,
  sent: Record<string, unknown> | undefined,
): { secrets?: SecretStatus[] } {
  const plan = sent?.secrets as SecretPlan | undefined;
  return plan ? { secrets: appliedSecretStatus(plan, record.secrets) } : {};
}
