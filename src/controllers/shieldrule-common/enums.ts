/**
 * The integer enums of shield rules (custom WAF rules and rate limits), exposed in the CRDs by
 * name. Names and numbers follow the official Shield document's enum mappings
 * (`x-enum-varnames`; the numbers are not always 0..n: operators skip 10, 11, 13 and 16,
 * timeframes are seconds), the CRDs read the same names from the document, and
 * test/unit/controllers/shieldrule-common/enums.test.ts checks both against it.
 */

/** A name <-> number table of one platform enum. */
export interface RuleEnum {
  /** The document's enum component, for messages (`WafRuleOperatorType`). */
  readonly title: string;
  readonly names: readonly string[];
  readonly numbers: readonly number[];
}

/** A table from `[name, number]` pairs. */
export function defineEnum(title: string, pairs: readonly (readonly [string, number])[]): RuleEnum {
  return { title, names: pairs.map(([n]) => n), numbers: pairs.map(([, v]) => v) };
}

/** The number of `name`; throws a clear error for a name outside the table. */
export function toWire(table: RuleEnum, name: string): number {
  const i = table.names.indexOf(name);
  if (i < 0) {
    throw new Error(
      `cannot map ${table.title} ${JSON.stringify(name)}: expected one of ${table.names.join(', ')}`,
    );
  }
  return table.numbers[i]!;
}

/** The name of a platform number; undefined for a number the table does not know. */
export function fromWire(table: RuleEnum, value: unknown): string | undefined {
  const i = typeof value === 'number' ? table.numbers.indexOf(value) : -1;
  return i < 0 ? undefined : table.names[i];
}

/** `WafRuleActionType`. */
export const WAF_ACTION = defineEnum('WafRuleActionType', [
  ['Block', 1],
  ['Log', 2],
  ['Challenge', 3],
  ['Allow', 4],
  ['Bypass', 5],
]);

/** `RatelimitRuleActionType`. */
export const RATE_LIMIT_ACTION = defineEnum('RatelimitRuleActionType', [
  ['RateLimit', 1],
  ['Log', 2],
  ['Challenge', 3],
]);

/** `WafRuleOperatorType`. */
export const OPERATOR = defineEnum('WafRuleOperatorType', [
  ['BEGINSWITH', 0],
  ['ENDSWITH', 1],
  ['CONTAINS', 2],
  ['CONTAINSWORD', 3],
  ['STRMATCH', 4],
  ['EQ', 5],
  ['GE', 6],
  ['GT', 7],
  ['LE', 8],
  ['LT', 9],
  ['WITHIN', 12],
  ['RX', 14],
  ['STREQ', 15],
  ['DETECTSQLI', 17],
  ['DETECTXSS', 18],
]);

/** `WafRuleSeverityType`. */
export const SEVERITY = defineEnum('WafRuleSeverityType', [
  ['NOTICE', 0],
  ['WARNING', 1],
  ['CRITICAL', 2],
]);

/** `WafRuleTransformationType`. */
export const TRANSFORMATION = defineEnum(
  'WafRuleTransformationType',
  [
    'CMDLINE',
    'COMPRESSWHITESPACE',
    'CSSDECODE',
    'HEXENCODE',
    'HTMLENTITYDECODE',
    'JSDECODE',
    'LENGTH',
    'LOWERCASE',
    'MD5',
    'NORMALIZEPATH',
    'NORMALISEPATH',
    'NORMALIZEPATHWIN',
    'NORMALISEPATHWIN',
    'REMOVECOMMENTS',
    'REMOVENULLS',
    'REMOVEWHITESPACE',
    'REPLACECOMMENTS',
    'SHA1',
    'URLDECODE',
    'URLDECODEUNI',
    'UTF8TOUNICODE',
  ].map((n, i) => [n, i + 1] as const),
);

/** `WafRatelimitCounterKeyType`. */
export const COUNTER_KEY = defineEnum('WafRatelimitCounterKeyType', [
  ['IP', 0],
  ['Host', 1],
  ['Country', 2],
  ['City', 3],
  ['ASN', 4],
  ['Organization', 5],
  ['JA4', 6],
  ['IP_JA4', 7],
]);

/** `WafRateLimitTimeframeType` (seconds). */
export const TIMEFRAME = defineEnum('WafRateLimitTimeframeType', [
  ['PerSecond', 1],
  ['PerTenSeconds', 10],
  ['PerOneMinute', 60],
  ['PerFiveMinutes', 300],
  ['PerFifteenMinutes', 900],
  ['PerOneHour', 3600],
]);

/** `WafRatelimitBlockType` (seconds). */
export const BLOCK_TIME = defineEnum('WafRatelimitBlockType', [
  ['ForThirtySeconds', 30],
  ['ForOneMinute', 60],
  ['ForFiveMinutes', 300],
  ['ForFifteenMinutes', 900],
  ['ForThirtyMinutes', 1800],
  ['ForOneHour', 3600],
]);
