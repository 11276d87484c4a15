/**
 * The managed shield zone fields: one row per API field with its spec path, how to read the
 * desired value from the spec, how to compare it with the live value, and where the live value
 * can be observed (single-zone GET or only the zone list).
 */
import {
  DdosExecutionMode,
  DdosSensitivity,
  PayloadLimitAction,
  PlanType,
  WafExecutionMode,
  type EnumTable,
} from './enums.js';
import type { ShieldPolicySpec } from './types.js';

/** How a desired value is compared with the live one. */
export type CompareMode = 'exact' | 'set' | 'list' | 'instant' | 'engineConfig';

/** One managed field. */
export interface FieldDef {
  /** The API's member name in the shield zone model. */
  wire: string;
  /** The spec path, used in messages (`waf.executionMode`). */
  specPath: string;
  /** The desired API value, or undefined when the spec does not set (manage) the field. */
  desired(spec: ShieldPolicySpec): unknown;
  compare: CompareMode;
  /** Absent from the single-zone GET: observed through `GET /shield/shield-zones` only. */
  listOnly: boolean;
  /** Integer enum shown by name. */
  enumTable?: EnumTable<string>;
}

function enumValue<N extends string>(table: EnumTable<N>, name: N | undefined): number | undefined {
  return name === undefined ? undefined : table.toWire(name);
}

/** Every field a ShieldPolicy can manage, in the order plans are shown. */
export const FIELDS: readonly FieldDef[] = [
  {
    wire: 'planType',
    specPath: 'planType',
    desired: (s) => enumValue(PlanType, s.planType),
    compare: 'exact',
    listOnly: true,
    enumTable: PlanType,
  },
  {
    wire: 'learningMode',
    specPath: 'learningMode',
    desired: (s) => s.learningMode,
    compare: 'exact',
    listOnly: false,
  },
  {
    wire: 'learningModeUntil',
    specPath: 'learningModeEndTime',
    desired: (s) => s.learningModeEndTime,
    compare: 'instant',
    listOnly: false,
  },
  {
    wire: 'wafEnabled',
    specPath: 'waf.enabled',
    desired: (s) => s.waf?.enabled,
    compare: 'exact',
    listOnly: false,
  },
  {
    wire: 'wafExecutionMode',
    specPath: 'waf.executionMode',
    desired: (s) => enumValue(WafExecutionMode, s.waf?.executionMode),
    compare: 'exact',
    listOnly: true,
    enumTable: WafExecutionMode,
  },
  {
    wire: 'wafDisabledRules',
    specPath: 'waf.disabledRules',
    desired: (s) => s.waf?.disabledRules,
    compare: 'set',
    listOnly: false,
  },
  {
    wire: 'wafLogOnlyRules',
    specPath: 'waf.logOnlyRules',
    desired: (s) => s.waf?.logOnlyRules,
    compare: 'set',
    listOnly: false,
  },
  {
    wire: 'wafCustomRuleOrder',
    specPath: 'waf.customRuleOrder',
    desired: (s) => s.waf?.customRuleOrder,
    compare: 'list',
    listOnly: false,
  },
  {
    wire: 'wafRequestHeaderLoggingEnabled',
    specPath: 'waf.requestHeaderLoggingEnabled',
    desired: (s) => s.waf?.requestHeaderLoggingEnabled,
    compare: 'exact',
    listOnly: false,
  },
  {
    wire: 'requestBodyLoggingEnabled',
    specPath: 'waf.requestBodyLoggingEnabled',
    desired: (s) => s.waf?.requestBodyLoggingEnabled,
    compare: 'exact',
    listOnly: false,
  },
  {
    wire: 'wafRequestIgnoredHeaders',
    specPath: 'waf.requestIgnoredHeaders',
    desired: (s) => s.waf?.requestIgnoredHeaders,
    compare: 'set',
    listOnly: false,
  },
  {
    wire: 'wafRealtimeThreatIntelligenceEnabled',
    specPath: 'waf.realtimeThreatIntelligenceEnabled',
    desired: (s) => s.waf?.realtimeThreatIntelligenceEnabled,
    compare: 'exact',
    listOnly: false,
  },
  {
    wire: 'wafProfileId',
    specPath: 'waf.profileId',
    desired: (s) => s.waf?.profileId,
    compare: 'exact',
    listOnly: false,
  },
  {
    wire: 'wafEngineConfig',
    specPath: 'waf.engineConfig',
    desired: (s) =>
      s.waf?.engineConfig?.map((e) => ({ name: e.name, valueEncoded: e.valueEncoded })),
    compare: 'engineConfig',
    listOnly: false,
  },
  {
    wire: 'wafRequestBodyLimitAction',
    specPath: 'waf.requestBodyLimitAction',
    desired: (s) => enumValue(PayloadLimitAction, s.waf?.requestBodyLimitAction),
    compare: 'exact',
    listOnly: true,
    enumTable: PayloadLimitAction,
  },
  {
    wire: 'wafResponseBodyLimitAction',
    specPath: 'waf.responseBodyLimitAction',
    desired: (s) => enumValue(PayloadLimitAction, s.waf?.responseBodyLimitAction),
    compare: 'exact',
    listOnly: true,
    enumTable: PayloadLimitAction,
  },
  {
    wire: 'dDoSShieldSensitivity',
    specPath: 'ddos.shieldSensitivity',
    desired: (s) => enumValue(DdosSensitivity, s.ddos?.shieldSensitivity),
    compare: 'exact',
    listOnly: true,
    enumTable: DdosSensitivity,
  },
  {
    wire: 'dDoSExecutionMode',
    specPath: 'ddos.executionMode',
    desired: (s) => enumValue(DdosExecutionMode, s.ddos?.executionMode),
    compare: 'exact',
    listOnly: true,
    enumTable: DdosExecutionMode,
  },
  {
    wire: 'dDoSChallengeWindow',
    specPath: 'ddos.challengeWindowSeconds',
    desired: (s) => s.ddos?.challengeWindowSeconds,
    compare: 'exact',
    listOnly: false,
  },
  {
    wire: 'whitelabelResponsePages',
    specPath: 'whitelabelResponsePages',
    desired: (s) => s.whitelabelResponsePages,
    compare: 'exact',
    listOnly: false,
  },
];

/** Looks a field up by its API name. */
export function fieldByWire(wire: string): FieldDef | undefined {
  return FIELDS.find((f) => f.wire === wire);
}

/** API names of the fields only the zone list shows. */
export const LIST_ONLY_FIELDS: readonly string[] = FIELDS.filter((f) => f.listOnly).map(
  (f) => f.wire,
);
