/**
 * The shield zone's integer enums, exposed in the CRD by name. Names and numbers follow the
 * official Shield document's enum mappings (`x-enum-varnames`), except the few
 * {@link RENAMED_VALUES}; the CRD lists the same names. No imports: the kind's legacyMoves read
 * {@link RENAMED_VALUES} without loading the controller.
 */

/**
 * The spec names that differ from the document's, by enum title: v1beta1 says Log and Off as the
 * WAF, DDoS and sensitivity enums do (docs/api.md); the numbers sent do not change.
 */
export const RENAMED_VALUES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  BotDetectionExecutionMode: { LogOnly: 'Log' },
  UploadScanningScannerMode: { Disabled: 'Off' },
};

/** The spec name of the document's enum `title` value `name`. */
export function specNameOf(title: string, name: string): string {
  return RENAMED_VALUES[title]?.[name] ?? name;
}

/** A bidirectional name <-> number table for one enum. */
export interface EnumTable<N extends string> {
  /** Enum name used in messages (e.g. `WAFExecutionMode`). */
  readonly title: string;
  readonly names: readonly N[];
  /** The API number of a name. */
  toWire(name: N): number;
  /** The name of an API number; undefined for a number outside the table. */
  fromWire(value: unknown): N | undefined;
}

function defineEnum<N extends string>(title: string, names: readonly N[]): EnumTable<N> {
  return {
    title,
    names,
    toWire(name: N): number {
      const i = names.indexOf(name);
      if (i < 0)
        throw new Error(`cannot map ${title} "${name}": expected one of ${names.join(', ')}`);
      return i;
    },
    fromWire(value: unknown): N | undefined {
      return typeof value === 'number' && Number.isInteger(value) ? names[value] : undefined;
    },
  };
}

export const WAF_EXECUTION_MODE_NAMES = ['Log', 'Block'] as const;
export type WafExecutionModeName = (typeof WAF_EXECUTION_MODE_NAMES)[number];
/** `wafExecutionMode`: 0 Log, 1 Block. */
export const WafExecutionMode = defineEnum('WAFExecutionMode', WAF_EXECUTION_MODE_NAMES);

export const PAYLOAD_LIMIT_ACTION_NAMES = ['Block', 'Log', 'Ignore'] as const;
export type PayloadLimitActionName = (typeof PAYLOAD_LIMIT_ACTION_NAMES)[number];
/** `wafRequestBodyLimitAction` / `wafResponseBodyLimitAction`: 0 Block, 1 Log, 2 Ignore. */
export const PayloadLimitAction = defineEnum('WAFPayloadLimitAction', PAYLOAD_LIMIT_ACTION_NAMES);

export const DDOS_SENSITIVITY_NAMES = ['Off', 'Low', 'Medium', 'High', 'Challenge'] as const;
export type DdosSensitivityName = (typeof DDOS_SENSITIVITY_NAMES)[number];
/** `dDoSShieldSensitivity`: 0 Off, 1 Low, 2 Medium, 3 High, 4 Challenge. */
export const DdosSensitivity = defineEnum('DDoSShieldSensitivity', DDOS_SENSITIVITY_NAMES);

export const DDOS_EXECUTION_MODE_NAMES = ['Log', 'Block'] as const;
export type DdosExecutionModeName = (typeof DDOS_EXECUTION_MODE_NAMES)[number];
/** `dDoSExecutionMode`: 0 Log, 1 Block. */
export const DdosExecutionMode = defineEnum('DDoSExecutionMode', DDOS_EXECUTION_MODE_NAMES);

export const PLAN_TYPE_NAMES = ['Basic', 'Advanced', 'Business', 'Enterprise'] as const;
export type PlanTypeName = (typeof PLAN_TYPE_NAMES)[number];
/** `planType`: 0 Basic, 1 Advanced, 2 Business, 3 Enterprise. */
export const PlanType = defineEnum('ShieldPlanType', PLAN_TYPE_NAMES);

export const BOT_EXECUTION_MODE_NAMES = ['Log', 'Challenge'] as const;
export type BotExecutionModeName = (typeof BOT_EXECUTION_MODE_NAMES)[number];
/** Bot detection `executionMode`: 0 Log (the document's LogOnly, named like waf/ddos), 1 Challenge. */
export const BotExecutionMode = defineEnum('BotDetectionExecutionMode', BOT_EXECUTION_MODE_NAMES);

export const BOT_SENSITIVITY_NAMES = ['Off', 'Low', 'Medium', 'High'] as const;
export type BotSensitivityName = (typeof BOT_SENSITIVITY_NAMES)[number];
/** Bot detection `sensitivity` members: 0 Off, 1 Low, 2 Medium, 3 High. */
export const BotSensitivity = defineEnum('BotDetectionSensitivity', BOT_SENSITIVITY_NAMES);

export const FINGERPRINT_AGGRESSION_NAMES = ['Unknown', 'Low', 'Medium', 'High', 'Custom'] as const;
export type FingerprintAggressionName = (typeof FINGERPRINT_AGGRESSION_NAMES)[number];
/** `browserFingerprint.aggression`: 0 Unknown, 1 Low, 2 Medium, 3 High, 4 Custom. */
export const FingerprintAggression = defineEnum(
  'BrowserFingerprintAggression',
  FINGERPRINT_AGGRESSION_NAMES,
);

export const SCANNER_MODE_NAMES = ['Off', 'Log', 'Block'] as const;
export type ScannerModeName = (typeof SCANNER_MODE_NAMES)[number];
/**
 * Upload scanning `csamScanningMode` / `antivirusScanningMode`: 0 Off (the document's Disabled,
 * named like the sensitivities), 1 Log, 2 Block.
 */
export const ScannerMode = defineEnum('UploadScanningScannerMode', SCANNER_MODE_NAMES);

export const ACCESS_LIST_ACTION_NAMES = [
  'None',
  'Allow',
  'Block',
  'Challenge',
  'Log',
  'Bypass',
] as const;
export type AccessListActionName = (typeof ACCESS_LIST_ACTION_NAMES)[number];
/** An access list's `action`: 0 None, 1 Allow, 2 Block, 3 Challenge, 4 Log, 5 Bypass. */
export const AccessListAction = defineEnum('AccessListAction', ACCESS_LIST_ACTION_NAMES);
