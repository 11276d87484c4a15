/** Types of the pull zone settings field table (see fields.ts). */

/** How a setting is represented in the spec and on the wire. */
export type FieldKind =
  | 'boolean'
  | 'string'
  | 'int32'
  | 'int64'
  | 'double'
  | 'stringList'
  | 'enum'
  | 'classList'
  | 'optimizerClassList';

/** One pull zone setting: spec name, API name, type, limits and our description. */
export interface SettingField {
  /** PascalCase property of the update model (`OriginShieldMaxConcurrentRequests`). */
  api: string;
  /**
   * lowerCamelCase spec name, derived mechanically from `api` by {@link toSpecName}, except
   * the few fields.ts renames (a unit in the name: `originConnectTimeoutSeconds`).
   */
  spec: string;
  kind: FieldKind;
  /** Our own description, shown by `kubectl explain`. */
  description: string;
  /** Enum names in wire order (name at index i is the integer i). */
  enumNames?: readonly string[];
  minimum?: number;
  maximum?: number;
  /**
   * Tiers the platform keeps: a positive value between two is rounded up to the next one (the
   * document says so), so the client sends the tier and compares tiers.
   */
  roundUpTo?: readonly number[];
  /** Pattern every list item must match. */
  itemPattern?: string;
  /** Pattern a string setting must match (an id's one spelling). */
  pattern?: string;
  /**
   * A secret value: set through `<spec>Ref` (a Secret key reference) instead of a plain
   * string, and never rendered in plans, events or logs.
   */
  secret?: boolean;
  /**
   * The pull zone record does not return this setting: drift cannot be observed, so the
   * operator records a hash of the value it last wrote and sends it again only when the
   * desired value changes.
   */
  writeOnly?: boolean;
  /** Name of the property in the pull zone record when it differs from `api`. */
  recordName?: string;
}

/**
 * The one mechanical PascalCase -> lowerCamelCase rule: a leading run of capitals is
 * lowercased (except the last one when a lowercase letter follows, which starts the next
 * word); everything after it is kept. `AWSSigningKey` -> `awsSigningKey`,
 * `EnableTLS1_1` -> `enableTLS1_1`, `IpFamilyPolicy` -> `ipFamilyPolicy`.
 */
export function toSpecName(api: string): string {
  const match = /^[A-Z]+/.exec(api);
  if (!match) return api;
  const run = match[0];
  const next = api.charAt(run.length);
  const keep = run.length > 1 && /[a-z]/.test(next) ? run.length - 1 : run.length;
  return api.slice(0, keep).toLowerCase() + api.slice(keep);
}
