/**
 * The shield rule enums' spec names, keyed by the platform's names (the official Shield
 * document's `x-enum-varnames`, which v1alpha1 used as spec names). v1beta1 writes them in
 * UpperCamel (docs/api.md); the numbers sent do not change. Plain data, without imports: the
 * kinds' legacyMoves read it without loading a controller.
 */

/** `WafRuleOperatorType`. */
export const OPERATOR_NAMES = {
  BEGINSWITH: 'BeginsWith',
  ENDSWITH: 'EndsWith',
  CONTAINS: 'Contains',
  CONTAINSWORD: 'ContainsWord',
  STRMATCH: 'StrMatch',
  EQ: 'Equal',
  GE: 'GreaterOrEqual',
  GT: 'GreaterThan',
  LE: 'LessOrEqual',
  LT: 'LessThan',
  WITHIN: 'Within',
  RX: 'Regex',
  STREQ: 'StrEqual',
  DETECTSQLI: 'DetectSQLi',
  DETECTXSS: 'DetectXSS',
} as const;

/** `WafRuleSeverityType`. */
export const SEVERITY_NAMES = {
  NOTICE: 'Notice',
  WARNING: 'Warning',
  CRITICAL: 'Critical',
} as const;

/**
 * `WafRuleTransformationType`. The British NORMALISEPATH(WIN) are the platform's own numbers
 * for the same transformation: they read as NormalizePath(Win), which sends the American number.
 */
export const TRANSFORMATION_NAMES = {
  CMDLINE: 'CmdLine',
  COMPRESSWHITESPACE: 'CompressWhitespace',
  CSSDECODE: 'CSSDecode',
  HEXENCODE: 'HexEncode',
  HTMLENTITYDECODE: 'HTMLEntityDecode',
  JSDECODE: 'JSDecode',
  LENGTH: 'Length',
  LOWERCASE: 'Lowercase',
  MD5: 'MD5',
  NORMALIZEPATH: 'NormalizePath',
  NORMALISEPATH: 'NormalizePath',
  NORMALIZEPATHWIN: 'NormalizePathWin',
  NORMALISEPATHWIN: 'NormalizePathWin',
  REMOVECOMMENTS: 'RemoveComments',
  REMOVENULLS: 'RemoveNulls',
  REMOVEWHITESPACE: 'RemoveWhitespace',
  REPLACECOMMENTS: 'ReplaceComments',
  SHA1: 'SHA1',
  URLDECODE: 'URLDecode',
  URLDECODEUNI: 'URLDecodeUni',
  UTF8TOUNICODE: 'UTF8ToUnicode',
} as const;

/** `WafRatelimitCounterKeyType`: only the underscored IP_JA4 changes. */
export const COUNTER_KEY_NAMES = {
  IP: 'IP',
  Host: 'Host',
  Country: 'Country',
  City: 'City',
  ASN: 'ASN',
  Organization: 'Organization',
  JA4: 'JA4',
  IP_JA4: 'IPAndJA4',
} as const;
