/**
 * Names of edge rule action, trigger and matching types (the official document's enum names,
 * in wire order) and the parameters each one needs. The CRD, the mapping to the wire form
 * and `cdnctl export` all read these tables.
 */

/** Action type names by wire value (the document skips 35 and 36). */
export const ACTION_TYPES: Readonly<Record<string, number>> = {
  ForceSSL: 0,
  Redirect: 1,
  OriginUrl: 2,
  OverrideCacheTime: 3,
  BlockRequest: 4,
  SetResponseHeader: 5,
  SetRequestHeader: 6,
  ForceDownload: 7,
  DisableTokenAuthentication: 8,
  EnableTokenAuthentication: 9,
  OverrideCacheTimePublic: 10,
  IgnoreQueryString: 11,
  DisableOptimizer: 12,
  ForceCompression: 13,
  SetStatusCode: 14,
  BypassPermaCache: 15,
  OverrideBrowserCacheTime: 16,
  OriginStorage: 17,
  SetNetworkRateLimit: 18,
  SetConnectionLimit: 19,
  SetRequestsPerSecondLimit: 20,
  RunEdgeScript: 21,
  OriginMagicContainers: 22,
  DisableWAF: 23,
  RetryOrigin: 24,
  OverrideBrowserCacheResponseHeader: 25,
  RemoveBrowserCacheResponseHeader: 26,
  DisableShieldChallenge: 27,
  DisableShield: 28,
  DisableShieldBotDetection: 29,
  BypassAwsS3Authentication: 30,
  DisableShieldAccessLists: 31,
  DisableShieldRateLimiting: 32,
  EnableRequestCoalescing: 33,
  DisableRequestCoalescing: 34,
  StripCookiesClientToOrigin: 37,
};

/** Trigger type names by wire value. */
export const TRIGGER_TYPES: Readonly<Record<string, number>> = {
  Url: 0,
  RequestHeader: 1,
  ResponseHeader: 2,
  UrlExtension: 3,
  CountryCode: 4,
  RemoteIP: 5,
  UrlQueryString: 6,
  RandomChance: 7,
  StatusCode: 8,
  RequestMethod: 9,
  CookieValue: 10,
  CountryStateCode: 11,
  OriginRetryAttemptCount: 12,
  OriginConnectionError: 13,
};

/** MatchAny / MatchAll / MatchNone, for rules (trigger matching) and triggers (patterns). */
export const MATCHING_TYPES: Readonly<Record<string, number>> = {
  MatchAny: 0,
  MatchAll: 1,
  MatchNone: 2,
};

/** What an action parameter must hold. */
export type ParameterKind = 'text' | 'url' | 'integer' | 'statusCode';

/** One parameter of an action: what it holds and whether the action needs it. */
export interface ParameterRule {
  kind: ParameterKind;
  required: boolean;
}

const need = (kind: ParameterKind): ParameterRule => ({ kind, required: true });
const may = (kind: ParameterKind): ParameterRule => ({ kind, required: false });

/**
 * Parameters of an action, by action name (`parameter1`, `parameter2`). Actions not listed
 * take no parameters. Integers travel as decimal strings (every parameter is a string on the
 * wire). Redirect's second parameter is the redirect status code.
 */
export const ACTION_PARAMETERS: Readonly<Record<string, Readonly<Record<string, ParameterRule>>>> =
  {
    Redirect: { parameter1: need('url'), parameter2: may('statusCode') },
    OriginUrl: { parameter1: need('url') },
    OverrideCacheTime: { parameter1: need('integer') },
    OverrideCacheTimePublic: { parameter1: need('integer') },
    OverrideBrowserCacheTime: { parameter1: need('integer') },
    SetResponseHeader: { parameter1: need('text'), parameter2: may('text') },
    SetRequestHeader: { parameter1: need('text'), parameter2: may('text') },
    OverrideBrowserCacheResponseHeader: { parameter1: need('text') },
    SetStatusCode: { parameter1: need('statusCode') },
    OriginStorage: { parameter1: need('integer') },
    SetNetworkRateLimit: { parameter1: need('integer') },
    SetConnectionLimit: { parameter1: need('integer') },
    SetRequestsPerSecondLimit: { parameter1: need('integer') },
    // Or the script by reference (`scriptRef`: edge-rules-schema.ts, script-refs.ts).
    RunEdgeScript: { parameter1: may('integer') },
    OriginMagicContainers: { parameter1: need('text') },
    RetryOrigin: { parameter1: may('integer') },
  };

/** Triggers whose `parameter1` names the header or cookie matched. */
export const TRIGGERS_WITH_PARAMETER: readonly string[] = [
  'RequestHeader',
  'ResponseHeader',
  'CookieValue',
];

/** Name of a wire value in a table, or undefined. */
export function nameOf(
  table: Readonly<Record<string, number>>,
  value: unknown,
): string | undefined {
  return Object.keys(table).find((k) => table[k] === value);
}
