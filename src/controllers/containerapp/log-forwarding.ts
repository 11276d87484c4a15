/**
 * Pure mapping and comparison of `spec.logForwarding` with the application's live log
 * forwarding configuration (`/mc/log/forwarding/{appId}`, one per application).
 *
 * - Members (`type`, `endpoint`, `port`, `format`, `enabled`) compare with the live ones; the
 *   endpoint without regard to case (a hostname). `enabled` unset means true.
 * - The token (from `tokenSecretRef`) is never kept. `status.logForwarding.tokenFingerprint`
 *   is a SHA-256 digest of the object's uid and the token last applied, like a
 *   ContainerRegistry's password fingerprint: a Secret whose value no longer matches it is
 *   sent once (rotation), and an unchanged Secret never is. Without a fingerprint (an adopted
 *   configuration, or the block just added) the client compares the platform's token with the
 *   Secret's in memory (`tokenMatches`): equal -> nothing sent and the fingerprint recorded;
 *   different, or not comparable (the answer carries no token) -> one PUT.
 * - Without `tokenSecretRef` the token is not managed: none is sent, the platform keeps its own.
 * - Ownership: the configuration is read only while the spec has the block or status records
 *   one as managed; a managed configuration whose block was removed is deleted.
 */
import type { LogForwarding, LogForwardingRequest } from '../../cdn/security-types.js';
import type { FieldDiff } from '../../runtime/types.js';
import { REDACTED, UNSET, renderValue } from '../shared/plan.js';
import type { UidSaltedDigest } from '../kind-module.js';
import { fingerprintSecretValue } from '../shared/secret-fingerprint.js';
import type { ContainerApp, LogForwardingSpec, LogForwardingStatus } from './types.js';
import { LOG_FORMAT_NAMES, LOG_TYPE_NAMES } from './wire-enums.js';
import { fromWireName, shownName, toWireName } from '../kit/enum-spelling.js';

/**
 * The desired configuration: the spec's block with the token read from its Secret, the enums in
 * the platform's values (kit/enum-spelling.ts).
 */
export interface DesiredLogForwarding {
  enabled: boolean;
  type: LogForwardingRequest['type'];
  endpoint: string;
  port: number;
  format: LogForwardingRequest['format'];
  /** `tokenSecretRef` is set (the token is managed). */
  tokenRef: boolean;
  /** The token read from the Secret; undefined when not managed or not readable (cdnctl diff). */
  token?: string;
}

/** The one write a pass makes for the configuration, if any. */
export type LogForwardingAction = 'none' | 'create' | 'replace' | 'delete';

/** What observe learned about the configuration. */
export interface LogForwardingPlan {
  action: LogForwardingAction;
  desired?: DesiredLogForwarding;
  /** Plan entries (`logForwarding`, `logForwarding.<member>`); never a token. */
  diffs: FieldDiff[];
  /** `status.logForwarding` as observed; undefined clears it (nothing managed any more). */
  status: LogForwardingStatus | undefined;
}

/** Members compared one by one, in plan order. */
const MEMBERS = ['enabled', 'type', 'endpoint', 'port', 'format'] as const;
type Member = (typeof MEMBERS)[number];

/** The `sha256:` fingerprint of `token` for the object `uid` (see the module comment). */
export function tokenFingerprint(uid: string | undefined, token: string): string {
  return fingerprintSecretValue('containerapp/logforwarding', uid, token);
}

/** The token's digest, as the tools see it (KindModule `uidDigests`). */
export const TOKEN_DIGEST: UidSaltedDigest = {
  statusPath: ['logForwarding', 'tokenFingerprint'],
  secretRefPath: ['logForwarding', 'tokenSecretRef'],
  digest: tokenFingerprint,
};

/** The desired configuration, or undefined when the spec has no block. */
export function desiredLogForwarding(
  spec: { logForwarding?: LogForwardingSpec },
  token: string | undefined,
): DesiredLogForwarding | undefined {
  const lf = spec.logForwarding;
  if (!lf) return undefined;
  return {
    enabled: lf.enabled ?? true,
    type: toWireName(LOG_TYPE_NAMES, lf.type),
    endpoint: lf.endpoint,
    port: lf.port,
    format: toWireName(LOG_FORMAT_NAMES, lf.format),
    tokenRef: lf.tokenSecretRef !== undefined,
    ...(lf.tokenSecretRef && token !== undefined ? { token } : {}),
  };
}

/** The configuration status records as managed for this very application, if any. */
export function recordedLogForwarding(
  obj: ContainerApp,
  appId: string,
): LogForwardingStatus | undefined {
  return obj.status?.appId === appId ? obj.status.logForwarding : undefined;
}

/** Body of create (`POST /mc/log/forwarding`) and replace (`PUT .../{appId}`). */
export function toLogForwardingRequest(
  appId: string,
  d: DesiredLogForwarding,
): LogForwardingRequest {
  return {
    app: appId,
    type: d.type,
    endpoint: d.endpoint,
    port: d.port,
    format: d.format,
    enabled: d.enabled,
    ...(d.token !== undefined ? { token: d.token } : {}),
  };
}

/** `status.logForwarding` from a live configuration (never its token). */
export function logForwardingStatusOf(
  live: LogForwarding,
  fingerprint: string | undefined,
): LogForwardingStatus {
  const out: LogForwardingStatus = {};
  if (typeof live.id === 'string') out.id = live.id;
  if (typeof live.enabled === 'boolean') out.enabled = live.enabled;
  if (typeof live.type === 'string') out.type = shownName(LOG_TYPE_NAMES, live.type);
  if (typeof live.endpoint === 'string') out.endpoint = live.endpoint;
  if (typeof live.port === 'number') out.port = live.port;
  if (typeof live.format === 'string') out.format = shownName(LOG_FORMAT_NAMES, live.format);
  if (fingerprint !== undefined) out.tokenFingerprint = fingerprint;
  return out;
}

function sameMember(member: Member, d: DesiredLogForwarding, live: LogForwarding): boolean {
  if (member === 'endpoint')
    return (
      typeof live.endpoint === 'string' && live.endpoint.toLowerCase() === d.endpoint.toLowerCase()
    );
  return live[member] === d[member];
}

/** How the token compares: the fingerprint first, the platform's token when none is recorded. */
type TokenState = 'same' | 'rotated' | 'differs' | 'unverified';

function tokenStateOf(
  d: DesiredLogForwarding,
  live: LogForwarding,
  recorded: string | undefined,
  current: string | undefined,
): TokenState {
  if (current === undefined) return 'same';
  if (recorded !== undefined) return recorded === current ? 'same' : 'rotated';
  if (live.tokenMatches === true) return 'same';
  return live.tokenMatches === false ? 'differs' : 'unverified';
}

const TOKEN_ENTRIES: Record<Exclude<TokenState, 'same'>, (live: LogForwarding) => FieldDiff> = {
  rotated: () => ({
    field: 'logForwarding.token',
    live: REDACTED,
    desired: `${REDACTED} (rotated)`,
  }),
  differs: (live) => ({
    field: 'logForwarding.token',
    live: live.tokenSet === false ? UNSET : REDACTED,
    desired: `${REDACTED} (differs from the platform's)`,
  }),
  unverified: () => ({
    field: 'logForwarding.token',
    live: '<not comparable>',
    desired: `${REDACTED} (sent once to be sure)`,
  }),
};

/** A member's value as the spec spells it (the enums in spec names). */
function shownMember(member: Member, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (member === 'type') return shownName(LOG_TYPE_NAMES, value);
  return member === 'format' ? shownName(LOG_FORMAT_NAMES, value) : value;
}

function shownDesired(d: DesiredLogForwarding): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const m of MEMBERS) out[m] = shownMember(m, d[m]);
  return { ...out, ...(d.tokenRef ? { token: REDACTED } : {}) };
}

function shownLive(live: LogForwarding): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const m of MEMBERS) if (live[m] !== undefined) out[m] = shownMember(m, live[m]);
  return out;
}

/** Both exist: per-member entries and the token's. */
function planBoth(
  d: DesiredLogForwarding,
  live: LogForwarding,
  recorded: LogForwardingStatus | undefined,
  fingerprint: (token: string) => string,
): LogForwardingPlan {
  const current = d.token !== undefined ? fingerprint(d.token) : undefined;
  const diffs: FieldDiff[] = MEMBERS.filter((m) => !sameMember(m, d, live)).map((m) => ({
    field: `logForwarding.${m}`,
    live: renderValue(shownMember(m, live[m])),
    desired: renderValue(shownMember(m, d[m])),
  }));
  const token = tokenStateOf(d, live, recorded?.tokenFingerprint, current);
  if (token !== 'same') diffs.push(TOKEN_ENTRIES[token](live));
  return {
    action: diffs.length > 0 ? 'replace' : 'none',
    desired: d,
    diffs,
    status: logForwardingStatusOf(live, fingerprintInForce(d, token, recorded, current)),
  };
}

/**
 * The fingerprint status keeps: none while the token is not managed; the recorded one until a
 * write applies the Secret's value; the Secret's once the platform's token was found equal.
 */
function fingerprintInForce(
  d: DesiredLogForwarding,
  token: TokenState,
  recorded: LogForwardingStatus | undefined,
  current: string | undefined,
): string | undefined {
  if (!d.tokenRef) return undefined;
  if (token === 'same') return recorded?.tokenFingerprint ?? current;
  return recorded?.tokenFingerprint;
}

/**
 * Compares the desired configuration (undefined: the spec has no block) with the live one
 * (undefined: the application has none). `recorded` is what status records as managed for
 * this application; `fingerprint` digests a token for this object.
 */
export function planLogForwarding(input: {
  desired: DesiredLogForwarding | undefined;
  live: LogForwarding | undefined;
  recorded: LogForwardingStatus | undefined;
  fingerprint: (token: string) => string;
}): LogForwardingPlan {
  const { desired: d, live, recorded } = input;
  if (d && live) return planBoth(d, live, recorded, input.fingerprint);
  if (d) {
    const diff = { field: 'logForwarding', live: UNSET, desired: renderValue(shownDesired(d)) };
    return { action: 'create', desired: d, diffs: [diff], status: undefined };
  }
  if (live && recorded) {
    const diff = { field: 'logForwarding', live: renderValue(shownLive(live)), desired: UNSET };
    return {
      action: 'delete',
      diffs: [diff],
      status: logForwardingStatusOf(live, recorded.tokenFingerprint),
    };
  }
  // Nothing desired and nothing (left) to delete: status forgets it.
  return { action: 'none', diffs: [], status: undefined };
}

/**
 * The spec block of a live configuration, for `cdnctl export`: every member as read, and the
 * token as a reference to `tokenSecretRef` (never its value) when the platform has one.
 * Undefined when a member the spec requires is missing from the answer.
 */
export function logForwardingSpecOf(
  live: LogForwarding,
  tokenSecretRef: { name: string; key: string } | undefined,
): LogForwardingSpec | undefined {
  const { endpoint, port } = live;
  const type = fromWireName(LOG_TYPE_NAMES, live.type);
  const format = fromWireName(LOG_FORMAT_NAMES, live.format);
  if (type === undefined || endpoint === undefined || port === undefined || format === undefined)
    return undefined;
  return {
    enabled: live.enabled ?? true,
    type,
    endpoint,
    port,
    format,
    ...(tokenSecretRef ? { tokenSecretRef } : {}),
  };
}
