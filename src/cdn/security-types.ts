/**
 * Wire types of the shield rules and settings (custom WAF rules, rate limits, access lists,
 * bot detection, upload scanning, managed WAF rules and their review) and of container
 * registries and log forwarding, aliased from the official documents (src/cdn/generated) so
 * callers never reach into the generated files.
 */
import type { components as McComponents } from './generated/magic-containers.js';
import type { components as ShieldComponents } from './generated/shield.js';

type Shield = ShieldComponents['schemas'];
type Mc = McComponents['schemas'];

// ---- custom WAF rules and rate limits ----

/** A custom WAF rule as read (`id`, `shieldZoneId`, name, description, configuration). */
export type CustomWafRule = Omit<Shield['CustomWafRule'], 'errorResponse'>;
/** The condition and action of a custom WAF rule (`actionType` 1 Block .. 5 Bypass). */
export type CustomWafRuleConfiguration = Shield['CreateCustomWafRuleModel'];
/** Body of `POST /shield/waf/custom-rule`. */
export type CustomWafRuleCreate = Shield['CreateCustomWafRuleRequest'];
/**
 * Body of `PATCH`/`PUT /shield/waf/custom-rule/{id}`. The platform binds a given
 * `ruleConfiguration` as a whole (a member left out of it is 0 or null), so send it complete.
 */
export type CustomWafRuleUpdate = Shield['UpdateCustomWafRuleRequest'];
/** One condition chained to a rule's main condition (all must match). */
export type ChainedRuleCondition = Shield['WafChainedRuleConditionItem'];
/** A rate limit as read. */
export type RateLimitRule = Omit<Shield['RateLimitRule'], 'errorResponse'>;
/** Condition, action (1 RateLimit, 2 Log, 3 Challenge), count, window and block time. */
export type RateLimitConfiguration = Shield['CreateWafRateLimitRuleModel'];
/** Body of `POST /shield/rate-limit`. */
export type RateLimitCreate = Shield['CreateWafRateLimitRequest'];
/** Body of `PATCH /shield/rate-limit/{id}` (configuration bound whole, as for WAF rules). */
export type RateLimitUpdate = Shield['UpdateWafRateLimitRequest'];

// ---- access lists ----

/** Type of an access list: 0 IP, 1 CIDR, 2 ASN, 3 Country, 4 Organization, 5 JA4. */
export type AccessListType = Shield['AccessListType'];
/** What a matching request gets: 0 None, 1 Allow, 2 Block, 3 Challenge, 4 Log, 5 Bypass. */
export type AccessListAction = Shield['AccessListAction'];
/** One list (curated or custom) with the zone's configuration of it. */
export type AccessListDetails = Shield['AccessListDetails'];
/** All lists of a zone with the custom list counts and the plan's limits. */
export type AccessListsOverview = Omit<Shield['AccessListsDetailsResponse'], 'error'>;
/** A custom list with its entries (`content`, one per line). */
export type CustomAccessList = Shield['CustomAccessList'];
/** Body of `POST .../access-lists`. */
export type CustomAccessListCreate = Shield['CreateCustomAccessListRequest'];
/** Body of `PATCH .../access-lists/{id}` (name and/or content). */
export type CustomAccessListUpdate = Shield['UpdateCustomAccessListRequest'];
/** Body and answer of `PATCH .../access-lists/configurations/{id}`. */
export type AccessListConfiguration = Shield['UpdateAccessListConfigurationRequest'];

// ---- bot detection, upload scanning ----

/** A zone's bot detection settings. */
export type BotDetection = Shield['BotDetectionConfigurationState'];
/**
 * Body of `PATCH .../bot-detection`: top-level members left out keep their value; a nested
 * object given replaces the whole object, so send nested objects complete.
 */
export type BotDetectionUpdate = Shield['UpdateBotDetectionRequest'];
/** A zone's upload scanning settings. */
export type UploadScanning = Shield['UploadScanningConfigurationState'];
/** Body of `PATCH .../upload-scanning`: members left out keep their value. */
export type UploadScanningUpdate = Shield['UpdateUploadScanningConfigurationRequest'];

// ---- managed WAF rules and the triggered-rule review ----

/** A main group of managed rules (rule groups with their rule ids). */
export type WafRuleGroup = Shield['WafRuleMainGroupModel'];
/** The managed rules one plan adds. */
export type WafRulesByPlan = Shield['WafRulesByPlanModel'];
/** A managed rule that triggered on the zone and is waiting for review. */
export type TriggeredRule = Shield['TriggeredRuleItem'];
/** Review of a triggered rule: `action` 0 Ignore, 1 LogOnly, 2 DisableRule. */
export type TriggeredRuleReview = Shield['UpdateReviewTriggeredRuleRequest'];
/** Shield plan: 0 Basic, 1 Advanced, 2 Business, 3 Enterprise. */
export type ShieldPlanType = Shield['ShieldPlanType'];

// ---- container registries, log forwarding (Magic Containers) ----

/**
 * A container registry as read. The platform's `firstPasswordSymbols` and
 * `lastPasswordSymbols` (pieces of the password) are dropped by the client: they must never
 * reach a status, event or log.
 */
export type ContainerRegistry = Omit<
  Mc['ContainerRegistry'],
  'firstPasswordSymbols' | 'lastPasswordSymbols'
>;
/** Body of add and replace; `passwordCredentials.password` is a secret. */
export type ContainerRegistryRequest = Mc['ContainerRegistryRequest'];
/** Registry kind: `dockerHub`, `gitHub`, `bunnyRegistry`. */
export type RegistryType = Mc['RegistryType'];
/**
 * Log forwarding of one application as read. The client never returns its `token`: it says
 * only whether the answer carried one and, when the caller asked, whether it equals a value
 * the caller holds (compared in memory, see log-forwarding.ts).
 */
export type LogForwarding = Omit<Mc['LogForwardingConfiguration'], 'token'> & {
  /** The answer carried a non-empty token (absent: the answer had no `token` member). */
  tokenSet?: boolean;
  /**
   * With `compareToken`: the platform's token equals it. Absent when not asked or when the
   * answer had no `token` member (nothing to compare).
   */
  tokenMatches?: boolean;
};
/** Body of create and replace; `token` is a secret. */
export type LogForwardingRequest = Mc['CreateLogForwardingRequest'];
