/**
 * The integer enums of shield rules, exposed in the CRDs by name (kit codecs.ts enumByNumber).
 * Numbers and platform names follow the official Shield document's `x-enum-varnames` (not
 * always 0..n: operators skip 10, 11, 13 and 16, timeframes are seconds); the spec names are
 * UpperCamel (renames.ts); enums.test.ts checks them.
 */
import { numberedNames, type NumberedNames } from '../kit/codecs.js';
import {
  COUNTER_KEY_NAMES,
  OPERATOR_NAMES,
  SEVERITY_NAMES,
  TRANSFORMATION_NAMES,
} from './renames.js';

/**
 * A name <-> number table of one platform enum, `title`d as its document component. A spec name
 * may stand for two numbers (a platform alias): it sends the first and reads both.
 */
export interface RuleEnum<N extends string = string> extends NumberedNames<N> {
  readonly title: string;
  /** The document's names of the numbers, in order (the spec names where they are the same). */
  readonly varnames: readonly string[];
}

/** A table of the space-separated `names` (kit codecs.ts numberedNames), the document's own. */
function enumOf(title: string, names: string, numbers: number | readonly number[]): RuleEnum {
  const varnames = names.split(' ');
  return { title, varnames, ...numberedNames(varnames, numbers) };
}

/** A table whose spec names are `renames`' values, keyed by the document's names in order. */
function renamedEnum<N extends string>(
  title: string,
  renames: Readonly<Record<string, N>>,
  numbers: number | readonly number[],
): RuleEnum<N> {
  return {
    title,
    varnames: Object.keys(renames),
    ...numberedNames(Object.values(renames), numbers),
  };
}

/** `WafRuleActionType`. */
export const WAF_ACTION = enumOf('WafRuleActionType', 'Block Log Challenge Allow Bypass', 1);

/** `RatelimitRuleActionType`. */
export const RATE_LIMIT_ACTION = enumOf('RatelimitRuleActionType', 'RateLimit Log Challenge', 1);

/** `WafRuleOperatorType`. */
export const OPERATOR = renamedEnum(
  'WafRuleOperatorType',
  OPERATOR_NAMES,
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 14, 15, 17, 18],
);

/** `WafRuleSeverityType`. */
export const SEVERITY = renamedEnum('WafRuleSeverityType', SEVERITY_NAMES, 0);

/** `WafRuleTransformationType`. */
export const TRANSFORMATION = renamedEnum('WafRuleTransformationType', TRANSFORMATION_NAMES, 1);

/** `WafRatelimitCounterKeyType`. */
export const COUNTER_KEY = renamedEnum('WafRatelimitCounterKeyType', COUNTER_KEY_NAMES, 0);

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
