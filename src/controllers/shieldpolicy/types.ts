/** The ShieldPolicy custom resource as the controller reads it (crd.ts describes every field). */
import type { ManagedObject } from '../../runtime/types.js';
import type { KindNames } from '../kind-names.js';
import type { AccountSpec } from '../shared/account-schema.js';
import type { KindStatus } from '../shared/status-schema.js';
import type { CuratedListSpec } from './curated-lists.js';
import type { CustomPageSpec, CustomPageStatus } from './custom-pages.js';
import type {
  BotExecutionModeName,
  BotSensitivityName,
  FingerprintAggressionName,
  ScannerModeName,
  DdosExecutionModeName,
  DdosSensitivityName,
  PayloadLimitActionName,
  PlanTypeName,
  WafExecutionModeName,
} from './enums.js';

/** The kind's names (its KindModule, kind.ts, adds the lazy parts). */
export const SHIELD_POLICY_NAMES: KindNames = {
  kind: 'ShieldPolicy',
  plural: 'shieldpolicies',
  shortNames: ['shp'],
  scope: 'Namespaced',
  family: 'shield',
};

/**
 * Claim type of the shield zone a policy manages (id: `status.shieldZoneId`). Shield rule kinds
 * name a zone by id with this type, so a zone managed from another namespace is refused.
 */
export const SHIELD_ZONE_CLAIM = 'ShieldZone';

/** One WAF engine variable. */
export interface EngineConfigEntry {
  name: string;
  valueEncoded: string;
}

/** Desired WAF settings; every member optional (absent = not managed). */
export interface WafSpec {
  enabled?: boolean;
  executionMode?: WafExecutionModeName;
  disabledRules?: string[];
  logOnlyRules?: string[];
  customRuleOrder?: number[];
  requestHeaderLoggingEnabled?: boolean;
  requestBodyLoggingEnabled?: boolean;
  requestIgnoredHeaders?: string[];
  realtimeThreatIntelligenceEnabled?: boolean;
  profileId?: number;
  engineConfig?: EngineConfigEntry[];
  requestBodyLimitAction?: PayloadLimitActionName;
  responseBodyLimitAction?: PayloadLimitActionName;
}

/** Desired DDoS settings. */
export interface DdosSpec {
  shieldSensitivity?: DdosSensitivityName;
  executionMode?: DdosExecutionModeName;
  challengeWindowSeconds?: number;
}

/** Desired bot detection settings (absent members not managed). */
export interface BotDetectionSpec {
  executionMode?: BotExecutionModeName;
  requestIntegrity?: { sensitivity?: BotSensitivityName };
  ipAddress?: { sensitivity?: BotSensitivityName };
  browserFingerprint?: {
    sensitivity?: BotSensitivityName;
    aggression?: FingerprintAggressionName;
    complexEnabled?: boolean;
  };
}

/** Desired upload scanning settings (absent members not managed). */
export interface UploadScanningSpec {
  enabled?: boolean;
  csamScanningMode?: ScannerModeName;
  antivirusScanningMode?: ScannerModeName;
}

/** `spec` of a ShieldPolicy. */
export interface ShieldPolicySpec extends AccountSpec {
  /** A PullZoneConfig in the same namespace (exactly one of pullZoneRef / pullZoneId). */
  pullZoneRef?: { name: string };
  pullZoneId?: number;
  /** The zone's shield plan (absent = not managed). */
  planType?: PlanTypeName;
  learningMode?: boolean;
  learningModeEndTime?: string;
  waf?: WafSpec;
  ddos?: DdosSpec;
  whitelabelResponsePages?: boolean;
  botDetection?: BotDetectionSpec;
  uploadScanning?: UploadScanningSpec;
  /** Custom response pages, HTML from ConfigMap keys (absent page types not managed). */
  customPages?: CustomPageSpec[];
  /** The zone's curated (platform-maintained) access lists, by name (curated-lists.ts). */
  curatedAccessLists?: CuratedListSpec[];
  /** WAF rule ids whose trigger counters are copied into status. */
  ruleMetrics?: string[];
  /**
   * Additive (default): custom WAF rules, rate limits and custom access lists no object
   * manages are left alone. Exact: each is deleted (rule-sweep.ts).
   */
  rulePolicy?: RulePolicy;
  deletionPolicy?: 'Reset' | 'Orphan';
}

/** `spec.rulePolicy`. */
export type RulePolicy = 'Additive' | 'Exact';

/** What an item the `Exact` policy deleted was (the platform's kind of item). */
export type SweptItemType = 'CustomWafRule' | 'RateLimit' | 'CustomAccessList';

/** One item the `Exact` policy deleted, as shown in `status.deletedRules`. */
export interface DeletedRuleStatus {
  type: SweptItemType;
  id: number;
  name?: string;
  /** RFC 3339 time of the deletion. */
  deletionTime: string;
}

/** Trigger counters of one WAF rule as shown in status. */
export interface RuleMetricStatus {
  ruleId: string;
  totalTriggers?: number;
  blocked?: number;
  logged?: number;
  challenged?: number;
  /** Why the counters could not be read (the rule is unknown, ...). */
  error?: string;
}

/** One managed WAF rule waiting for review, as shown in status. */
export interface TriggeredRuleStatus {
  ruleId: string;
  description?: string;
  /** Requests that triggered the rule (the platform's `totalTriggeredRequests`). */
  requests: number;
}

/** `status.waf`: the triggered rules waiting for review (while the zone's WAF is on). */
export interface WafStatus {
  /** The rules with the most triggered requests (at most 20), most first. */
  triggeredRules?: TriggeredRuleStatus[];
  /** How many rules wait for review. */
  triggeredRulesTotal: number;
}

/** `status` of a ShieldPolicy. */
export interface ShieldPolicyStatus extends KindStatus {
  shieldZoneId?: number | string;
  pullZoneId?: number;
  planType?: PlanTypeName;
  rateLimitRulesLimit?: number;
  customWafRulesLimit?: number;
  ruleMetrics?: RuleMetricStatus[];
  lastMetricsTime?: string;
  /** SHA-256 of each managed custom page the zone has. */
  customPages?: CustomPageStatus[];
  /** Triggered WAF rules waiting for review. */
  waf?: WafStatus;
  /** The latest items `rulePolicy: Exact` deleted (at most 20, newest first). */
  deletedRules?: DeletedRuleStatus[];
}

/** A ShieldPolicy object. */
export interface ShieldPolicy extends ManagedObject {
  spec?: ShieldPolicySpec & Record<string, unknown>;
  status?: ShieldPolicyStatus;
}
