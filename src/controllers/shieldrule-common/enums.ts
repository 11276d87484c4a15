/**
 * The integer enums of shield rules, exposed in the CRDs by name (kit codecs.ts enumByNumber).
 * Names and numbers follow the official Shield document's `x-enum-varnames` (not always 0..n:
 * operators skip 10, 11, 13 and 16, timeframes are seconds); enums.test.ts checks them.
 */
import { numberedNames, type NumberedNames } from '../kit/codecs.js';

/** A name <-> number table of one platform enum, `title`d as its document component. */
export interface RuleEnum<N extends string = string> extends NumberedNames<N> {
  readonly title: string;
}

/** A table of the space-separated `names` (kit codecs.ts numberedNames). */
function enumOf(title: string, names: string, numbers: number | readonly number[]): RuleEnum {
  return { title, ...numberedNames(names.split(' '), numbers) };
}

/** `WafRuleActionType`. */
export const WAF_ACTION = enumOf('WafRuleActionType', 'Block Log Challenge Allow Bypass', 1);

/** `RatelimitRuleActionType`. */
export const RATE_LIMIT_ACTION = enumOf('RatelimitRuleActionType', 'RateLimit Log Challenge', 1);

/** `WafRuleOperatorType`. */
export const OPERATOR = enumOf(
  'WafRuleOperatorType',
  'BEGINSWITH ENDSWITH CONTAINS CONTAINSWORD STRMATCH EQ GE GT LE LT WITHIN RX STREQ DETECTSQLI DETECTXSS',
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 14, 15, 17, 18],
);

/** `WafRuleSeverityType`. */
export const SEVERITY = enumOf('WafRuleSeverityType', 'NOTICE WARNING CRITICAL', 0);

/** `WafRuleTransformationType`. */
export const TRANSFORMATION = enumOf(
  'WafRuleTransformationType',
  'CMDLINE COMPRESSWHITESPACE CSSDECODE HEXENCODE HTMLENTITYDECODE JSDECODE LENGTH LOWERCASE MD5 ' +
    'NORMALIZEPATH NORMALISEPATH NORMALIZEPATHWIN NORMALISEPATHWIN REMOVECOMMENTS REMOVENULLS ' +
    'REMOVEWHITESPACE REPLACECOMMENTS SHA1 URLDECODE URLDECODEUNI UTF8TOUNICODE',
  1,
);

/** `WafRatelimitCounterKeyType`. */
export const COUNTER_KEY = enumOf(
  'WafRatelimitCounterKeyType',
  'IP Host Country City ASN Organization JA4 IP_JA4',
  0,
);

/** `WafRateLimitTimeframeType` (seconds). */
export const TIMEFRAME = enumOf(
  'WafRateLimitTimeframeType',
  'PerSecond PerTenSeconds PerOneMinute PerFiveMinutes PerFifteenMinutes PerOneHour',
  [1, 10, 60, 300, 900, 3600],
);

/** `WafRatelimitBlockType` (seconds). */
export const BLOCK_TIME = enumOf(
  'WafRatelimitBlockType',
  'ForThirtySeconds ForOneMinute ForFiveMinutes ForFifteenMinutes ForThirtyMinutes ForOneHour',
  [30, 60, 300, 900, 1800, 3600],
);
