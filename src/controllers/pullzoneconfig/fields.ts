/**
 * The pull zone settings field table: every property of the platform's pull zone update
 * model, with its spec name, type, limits and our description. The CRD schema
 * (hack/generate-crds.ts), the spec <-> API mapping and the diff are all derived from it.
 */
import { APP_ID_PATTERN } from '../shared/platform-id.js';
import { toSpecName, type FieldKind, type SettingField } from './field-types.js';

type Extra = Omit<SettingField, 'api' | 'spec' | 'kind' | 'description'>;

/**
 * The settings whose spec name is not the mechanical one (docs/api.md, v1beta1 review): a
 * quantity names its unit, and a version is written without underscore. The API name (and the
 * wire) is unchanged; `cdnctl migrate` moves the v1alpha1 names (kind.ts `legacyMoves`).
 */
export const SPEC_NAME_OVERRIDES: Readonly<Record<string, string>> = {
  EnableTLS1: 'enableTLS10',
  EnableTLS1_1: 'enableTLS11',
  OriginConnectTimeout: 'originConnectTimeoutSeconds',
  OriginResponseTimeout: 'originResponseTimeoutSeconds',
  OriginRetryDelay: 'originRetryDelaySeconds',
  CacheControlMaxAgeOverride: 'cacheControlMaxAgeOverrideSeconds',
  CacheControlPublicMaxAgeOverride: 'cacheControlPublicMaxAgeOverrideSeconds',
  MonthlyBandwidthLimit: 'monthlyBandwidthLimitBytes',
  // Units the platform's documents leave out; the vendor's Terraform provider documents them.
  OriginShieldQueueMaxWaitTime: 'originShieldQueueMaxWaitSeconds',
  RequestCoalescingTimeout: 'requestCoalescingTimeoutSeconds',
  PreloadingScreenDelay: 'preloadingScreenDelayMilliseconds',
};

function field(api: string, kind: FieldKind, description: string, extra: Extra = {}): SettingField {
  const spec = SPEC_NAME_OVERRIDES[api] ?? toSpecName(api);
  return { api, spec, kind, description, ...extra };
}
const bool = (api: string, d: string, x?: Extra): SettingField => field(api, 'boolean', d, x);
const str = (api: string, d: string, x?: Extra): SettingField => field(api, 'string', d, x);
const i32 = (api: string, d: string, x?: Extra): SettingField => field(api, 'int32', d, x);
const i64 = (api: string, d: string, x?: Extra): SettingField => field(api, 'int64', d, x);
const dbl = (api: string, d: string, x?: Extra): SettingField => field(api, 'double', d, x);
const list = (api: string, d: string, x?: Extra): SettingField => field(api, 'stringList', d, x);
const enumOf = (api: string, names: readonly string[], d: string): SettingField =>
  field(api, 'enum', d, { enumNames: names });
const secret = (api: string, d: string): SettingField => field(api, 'string', d, { secret: true });

const COUNTRY = '^[A-Za-z]{2}$';
/** An application or endpoint id setting: its one spelling, or empty for none. */
const APP_ID: Extra = { pattern: `^$|${APP_ID_PATTERN}` };

/** Enum names from the official document's `x-enumNames` (and the contract for the first two). */
export const ENUMS = {
  IpFamilyPolicy: ['IPv4Only', 'DualStack', 'DualStackPreferIPv6', 'IPv6Only'],
  PullZoneType: ['Premium', 'Volume'],
  PermaCacheType: ['Automatic', 'Manual'],
  LogForwarderProtocol: ['UDP', 'TCP', 'TCPEncrypted', 'DataDog'],
  WatermarkPosition: [
    'BottomLeft',
    'BottomRight',
    'TopLeft',
    'TopRight',
    'Center',
    'CenterStretch',
  ],
  TlsSecurityLevel: ['Legacy', 'Compatible', 'ModernOnly'],
  LogAnonymization: ['OneDigit', 'Drop'],
  ExecutionPhase: ['Cache', 'LoadBalancer', 'PreCache'],
  OriginType: [
    'OriginUrl',
    'DnsAccelerate',
    'StorageZone',
    'LoadBalancer',
    'EdgeScript',
    'MagicContainers',
    'PushZone',
  ],
  LogFormat: ['Plain', 'JSON'],
  DDosProtection: ['DetectOnly', 'ActiveStandard', 'ActiveAggressive'],
  PreloadingScreenTheme: ['Light', 'Dark'],
  StickySession: ['Off', 'On'],
} as const;

/** WebSocket connection tiers: the platform rounds a value between two up to the next one. */
const WEBSOCKET_TIERS = [500, 1000, 2500, 5000, 10000, 25000] as const;

const ACCESS_AND_GEO: SettingField[] = [
  str(
    'OriginUrl',
    'Address of the origin server the zone pulls content from (e.g. https://origin.example.com).',
  ),
  list(
    'AllowedReferrers',
    'Referrer hostnames allowed to fetch content. A request whose Referer header names another host is refused. An empty list allows every referrer.',
  ),
  list('BlockedReferrers', 'Referrer hostnames whose requests are refused.'),
  bool('BlockNoneReferrer', 'Refuse requests that carry no Referer header at all.'),
  list(
    'BlockedIps',
    'Client IP addresses whose requests are refused. An empty list blocks nobody.',
  ),
  list(
    'BlockedCountries',
    'Two-letter ISO 3166-1 alpha-2 country codes whose visitors are refused.',
    { itemPattern: COUNTRY },
  ),
  list(
    'BudgetRedirectedCountries',
    'Two-letter ISO 3166-1 alpha-2 country codes whose visitors are served from the cheapest region.',
    { itemPattern: COUNTRY },
  ),
  bool('EnableGeoZoneUS', 'Serve visitors from edge locations in North America.'),
  bool('EnableGeoZoneEU', 'Serve visitors from edge locations in Europe.'),
  bool('EnableGeoZoneASIA', 'Serve visitors from edge locations in Asia and Oceania.'),
  bool('EnableGeoZoneSA', 'Serve visitors from edge locations in South America.'),
  bool('EnableGeoZoneAF', 'Serve visitors from edge locations in Africa.'),
  enumOf(
    'IpFamilyPolicy',
    ENUMS.IpFamilyPolicy,
    'Which IP address families the zone answers on. The platform default is DualStack.',
  ),
  bool('BlockRootPathAccess', 'Refuse requests for the root path (/) of the zone.'),
  bool('BlockPostRequests', 'Refuse HTTP POST requests.'),
  enumOf(
    'Type',
    ENUMS.PullZoneType,
    'Network tier of the zone: Premium (every location) or Volume (cheaper, fewer locations).',
  ),
  i64(
    'MonthlyBandwidthLimit',
    'Bytes the zone may deliver per month before it stops serving; 0 means no limit.',
  ),
];

const CACHING: SettingField[] = [
  bool('EnableQueryStringOrdering', 'Sort query string parameters before building the cache key.'),
  bool('EnableWebpVary', 'Keep separate cached copies for clients that accept WebP images.', {
    recordName: 'EnableWebPVary',
  }),
  bool('EnableAvifVary', 'Keep separate cached copies for clients that accept AVIF images.'),
  bool('EnableMobileVary', 'Keep separate cached copies for mobile and desktop clients.'),
  bool('EnableCountryCodeVary', 'Keep separate cached copies per visitor country.'),
  bool('EnableCountryStateCodeVary', 'Keep separate cached copies per visitor country and state.'),
  bool('EnableHostnameVary', 'Keep separate cached copies per requested hostname.'),
  bool('EnableCacheSlice', 'Cache large files in slices (suited to video delivery).'),
  bool(
    'IgnoreQueryStrings',
    'Leave the query string out of the cache key, so all variants share one cached object.',
  ),
  list(
    'QueryStringVaryParameters',
    'Query parameters that form the cache key. Only letters, digits, dashes and underscores are honoured; other entries are ignored by the platform. An empty list uses every parameter.',
  ),
  i64(
    'CacheControlMaxAgeOverride',
    'Edge cache lifetime in seconds that replaces the origin Cache-Control; -1 keeps the origin value.',
  ),
  i64(
    'CacheControlPublicMaxAgeOverride',
    'Browser cache lifetime in seconds sent to clients; -1 keeps the origin value.',
  ),
  i64(
    'CacheControlBrowserMaxAgeOverride',
    'Deprecated form of cacheControlPublicMaxAgeOverrideSeconds. Not returned by the platform, so drift is not detected; it is sent again only when the spec value changes.',
    { writeOnly: true },
  ),
  bool('CacheErrorResponses', 'Cache error responses from the origin.'),
  bool('UseStaleWhileUpdating', 'Serve the stale cached copy while a fresh one is being fetched.'),
  bool('UseStaleWhileOffline', 'Serve the stale cached copy while the origin is unreachable.'),
  bool('DisableCookies', 'Strip Set-Cookie headers from responses.'),
  i64(
    'PermaCacheStorageZoneId',
    'Id of the storage zone used as permanent cache; 0 turns the permanent cache off.',
  ),
  enumOf('PermaCacheType', ENUMS.PermaCacheType, 'How the permanent cache is filled.'),
  list('AccessControlOriginHeaderExtensions', 'File extensions that receive CORS headers.'),
  bool('EnableAccessControlOriginHeader', 'Add CORS headers to responses.'),
  bool(
    'AddHostHeader',
    'Forward the hostname the visitor requested to the origin in the Host header.',
  ),
  bool('AddCanonicalHeader', 'Add a canonical Link header to responses.'),
  bool('FollowRedirects', 'Follow redirects returned by the origin and cache the final response.'),
];

const SECURITY: SettingField[] = [
  bool('ZoneSecurityEnabled', 'Require signed (token-authenticated) URLs.'),
  bool('ZoneSecurityIncludeHashRemoteIP', 'Bind signed URLs to the client IP address.'),
  bool(
    'AWSSigningEnabled',
    'Sign origin requests with AWS Signature Version 4 (S3-compatible origins).',
  ),
  secret('AWSSigningKey', 'Access key id used to sign origin requests.'),
  str('AWSSigningRegionName', 'Region name used to sign origin requests (e.g. us-east-1).'),
  secret('AWSSigningSecret', 'Secret access key used to sign origin requests.'),
  bool('EnableTLS1', 'Accept TLS 1.0 connections from clients.'),
  bool('EnableTLS1_1', 'Accept TLS 1.1 connections from clients.'),
  bool('VerifyOriginSSL', 'Check the origin TLS certificate and refuse invalid ones.'),
];

const ORIGIN: SettingField[] = [
  bool(
    'EnableOriginShield',
    'Route origin requests through one shield location to reduce origin load.',
  ),
  str('OriginShieldZoneCode', 'Code of the location that acts as origin shield.'),
  bool(
    'OriginShieldEnableConcurrencyLimit',
    'Cap concurrent requests from the origin shield to the origin.',
  ),
  i32(
    'OriginShieldMaxConcurrentRequests',
    'Most requests the origin shield sends to the origin at the same time.',
    { minimum: 1, maximum: 10000 },
  ),
  i32('OriginRetries', 'How many times a failed origin request is retried.'),
  i32(
    'OriginConnectTimeout',
    'Seconds to wait for a connection to the origin before failing or retrying.',
  ),
  i32(
    'OriginResponseTimeout',
    'Seconds to wait for the origin to answer before failing or retrying.',
  ),
  bool('OriginRetry5XXResponses', 'Retry origin requests answered with a 5xx status.'),
  bool('OriginRetryConnectionTimeout', 'Retry origin requests whose connection timed out.'),
  bool('OriginRetryResponseTimeout', 'Retry origin requests whose response timed out.'),
  i32('OriginRetryDelay', 'Seconds to wait before retrying an origin request.'),
  i32(
    'DnsOriginPort',
    'Origin port for DNS-accelerated zones. Not returned by the platform, so drift is not detected.',
    { writeOnly: true },
  ),
  str(
    'DnsOriginScheme',
    'Origin scheme (http or https) for DNS-accelerated zones. Not returned by the platform, so drift is not detected.',
    { writeOnly: true },
  ),
];

const LOGGING: SettingField[] = [
  bool('EnableLogging', 'Keep access logs for the zone.'),
  bool('LoggingIPAnonymizationEnabled', 'Anonymize client IP addresses in access logs.'),
  bool('LoggingSaveToStorage', 'Store access logs permanently in a storage zone.'),
  i64('LoggingStorageZoneId', 'Id of the storage zone that receives permanent access logs.'),
  bool('LogForwardingEnabled', 'Forward access logs to an external collector.'),
  str('LogForwardingHostname', 'Hostname of the log collector.'),
  i32('LogForwardingPort', 'Port of the log collector.'),
  secret('LogForwardingToken', 'Token sent to the log collector.'),
  enumOf('LogForwardingProtocol', ENUMS.LogForwarderProtocol, 'Transport used to forward logs.'),
];

const CLIENT_LIMITS: SettingField[] = [
  i32(
    'ConnectionLimitPerIPCount',
    'Most simultaneous connections one client IP may open; 0 means no limit.',
  ),
  i32('RequestLimit', 'Most requests per second the zone accepts; 0 means no limit.'),
  dbl('LimitRateAfter', 'Amount of data sent to a client before its transfer rate is limited.'),
  i32(
    'LimitRatePerSecond',
    'Requests per second one client IP may make before it is blocked; 0 means no limit.',
  ),
  i32('BurstSize', 'Requests above the rate one client IP may burst before it is blocked.'),
];

const ERROR_PAGES: SettingField[] = [
  bool('ErrorPageEnableCustomCode', 'Serve the custom HTML in errorPageCustomCode on error pages.'),
  str('ErrorPageCustomCode', 'HTML served on error pages when errorPageEnableCustomCode is on.'),
  bool('ErrorPageEnableStatuspageWidget', 'Show a statuspage.io widget on error pages.'),
  str('ErrorPageStatuspageCode', 'statuspage.io page code used for the widget.'),
  bool('ErrorPageWhitelabel', 'Remove platform branding from error pages.'),
];

const OPTIMIZER: SettingField[] = [
  bool('OptimizerEnabled', 'Turn on the image and asset optimizer.'),
  bool('OptimizerTunnelEnabled', 'Reach the origin through the optimizer tunnel.'),
  i32(
    'OptimizerDesktopMaxWidth',
    'Largest image width in pixels served to desktop clients by automatic resizing.',
    { minimum: 0, maximum: 5000 },
  ),
  i32(
    'OptimizerMobileMaxWidth',
    'Largest image width in pixels served to mobile clients by automatic resizing.',
    { minimum: 0, maximum: 5000 },
  ),
  i32('OptimizerImageQuality', 'Image quality for desktop clients, in percent.', {
    minimum: 1,
    maximum: 100,
  }),
  i32('OptimizerMobileImageQuality', 'Image quality for mobile clients, in percent.', {
    minimum: 1,
    maximum: 100,
  }),
  bool('OptimizerEnableWebP', 'Convert images to WebP for clients that accept it.'),
  bool('OptimizerPrerenderHtml', 'Prerender HTML for search engine crawlers.'),
  bool(
    'OptimizerEnableManipulationEngine',
    'Allow image transformations requested through query parameters.',
  ),
  bool('OptimizerMinifyCSS', 'Minify CSS files.'),
  bool('OptimizerMinifyJavaScript', 'Minify JavaScript files.'),
  bool('OptimizerWatermarkEnabled', 'Add a watermark to images.'),
  str('OptimizerWatermarkUrl', 'Address of the watermark image.'),
  enumOf(
    'OptimizerWatermarkPosition',
    ENUMS.WatermarkPosition,
    'Where the watermark is placed on the image.',
  ),
  dbl('OptimizerWatermarkOffset', 'Distance of the watermark from the image edge.'),
  i32('OptimizerWatermarkMinImageSize', 'Smallest image size that receives a watermark.'),
  bool(
    'OptimizerAutomaticOptimizationEnabled',
    'Optimize images automatically without query parameters.',
  ),
  field(
    'OptimizerClasses',
    'optimizerClassList',
    'Named presets of optimizer parameters, selectable with the class query parameter; each documented parameter is a typed member.',
  ),
  bool('OptimizerForceClasses', 'Only allow image transformations defined by an optimizer class.'),
  bool(
    'OptimizerStaticHtmlEnabled',
    'Turn on the static HTML feature (permanent caching of generated pages).',
  ),
  str('OptimizerStaticHtmlWordPressPath', 'WordPress path the static HTML edge rule never caches.'),
  str(
    'OptimizerStaticHtmlWordPressBypassCookie',
    'WordPress cookie whose presence bypasses the static HTML cache.',
  ),
  bool(
    'EnableCookieVary',
    'Keep separate cached copies per value of the cookies in cookieVaryParameters.',
  ),
];

/** Update-model properties the official document has beyond the contract's table. */
const FURTHER: SettingField[] = [
  list('CookieVaryParameters', 'Cookie names whose values form part of the cache key.'),
  bool('EnableSafeHop', 'Retry failed origin requests through another route (SafeHop).'),
  i32('OriginShieldQueueMaxWaitTime', 'Seconds a request may wait in the origin shield queue.'),
  i32(
    'OriginShieldMaxQueuedRequests',
    'Most requests the origin shield keeps queued for the origin.',
    { minimum: 0, maximum: 30000 },
  ),
  bool(
    'UseBackgroundUpdate',
    'Refresh expired cache entries in the background while serving the old copy.',
  ),
  bool(
    'EnableAutoSSL',
    'Issue a free certificate automatically for every hostname added to the zone.',
  ),
  enumOf(
    'LogAnonymizationType',
    ENUMS.LogAnonymization,
    'How client IPs are anonymized in logs: drop the last digit group, or drop the address.',
  ),
  i64('StorageZoneId', 'Id of the storage zone used as origin (for storage-backed zones).'),
  i64('EdgeScriptId', 'Id of the edge script used as origin.'),
  i64('MiddlewareScriptId', 'Id of the middleware edge script.'),
  enumOf(
    'EdgeScriptExecutionPhase',
    ENUMS.ExecutionPhase,
    'Request phase in which the edge script runs.',
  ),
  enumOf('OriginType', ENUMS.OriginType, 'Kind of origin the zone pulls from.'),
  str('MagicContainersAppId', 'Id of the container application used as origin.', APP_ID),
  str(
    'MagicContainersEndpointId',
    'Id of the container application endpoint used as origin.',
    APP_ID,
  ),
  enumOf('LogFormat', ENUMS.LogFormat, 'Format of stored access logs.'),
  enumOf('LogForwardingFormat', ENUMS.LogFormat, 'Format of forwarded access logs.'),
  enumOf('ShieldDDosProtectionType', ENUMS.DDosProtection, 'DDoS protection mode.'),
  bool('ShieldDDosProtectionEnabled', 'Turn on DDoS protection.'),
  str('OriginHostHeader', 'Host header sent to the origin instead of the origin URL host.'),
  bool('EnableSmartCache', 'Let the platform decide what to cache from the content type.'),
  bool(
    'EnableRequestCoalescing',
    'Merge simultaneous requests for the same object into one origin request.',
  ),
  i32('RequestCoalescingTimeout', 'Seconds a coalesced request waits for the first one.'),
  bool(
    'DisableLetsEncrypt',
    "Pass ACME HTTP challenges to the origin instead of answering them with the platform's built-in issuer.",
  ),
  bool('EnableBunnyImageAi', 'Turn on AI image generation.'),
  field('BunnyAiImageBlueprints', 'classList', 'Named presets for AI image generation.'),
  bool('PreloadingScreenEnabled', 'Show a loading screen while pages load.'),
  str('PreloadingScreenCode', 'Custom HTML of the loading screen.'),
  str('PreloadingScreenLogoUrl', 'Address of the logo shown on the loading screen.'),
  bool(
    'PreloadingScreenShowOnFirstVisit',
    'Show the loading screen on a visitor’s first page load.',
  ),
  enumOf(
    'PreloadingScreenTheme',
    ENUMS.PreloadingScreenTheme,
    'Colour theme of the loading screen.',
  ),
  bool(
    'PreloadingScreenCodeEnabled',
    'Use the custom HTML in preloadingScreenCode for the loading screen.',
  ),
  i32('PreloadingScreenDelay', 'Milliseconds before the loading screen appears.', {
    minimum: 0,
    maximum: 10000,
  }),
  list('RoutingFilters', 'Routing filters applied to the zone.'),
  enumOf('StickySessionType', ENUMS.StickySession, 'Pin each client to one origin.'),
  str('StickySessionCookieName', 'Cookie that carries the sticky session.'),
  str(
    'StickySessionClientHeaders',
    'Comma-separated request headers that identify a client for sticky sessions.',
  ),
  bool('OptimizerEnableUpscaling', 'Allow the optimizer to enlarge images.'),
  bool('EnableWebSockets', 'Accept WebSocket connections.'),
  i32('MaxWebSocketConnections', 'Most simultaneous WebSocket connections for the zone.', {
    minimum: 0,
    maximum: 25000,
    roundUpTo: WEBSOCKET_TIERS,
  }),
  str('CacheKeyHeaders', 'Comma-separated request headers that form part of the cache key.'),
  i64('LoadBalancerId', 'Id of the load balancer used as origin.'),
  enumOf(
    'TlsSecurityLevel',
    ENUMS.TlsSecurityLevel,
    'Oldest TLS configuration the zone accepts from clients.',
  ),
];

/** Every pull zone setting, grouped as in the contract. */
export const SETTING_FIELDS: readonly SettingField[] = [
  ...ACCESS_AND_GEO,
  ...CACHING,
  ...SECURITY,
  ...ORIGIN,
  ...LOGGING,
  ...CLIENT_LIMITS,
  ...ERROR_PAGES,
  ...OPTIMIZER,
  ...FURTHER,
];

/** Settings by spec name. */
export const FIELDS_BY_SPEC: ReadonlyMap<string, SettingField> = new Map(
  SETTING_FIELDS.map((f) => [f.spec, f]),
);

/** Settings by API name. */
export const FIELDS_BY_API: ReadonlyMap<string, SettingField> = new Map(
  SETTING_FIELDS.map((f) => [f.api, f]),
);

/** API names of the secret settings (never rendered). */
export const SECRET_API_FIELDS: ReadonlySet<string> = new Set(
  SETTING_FIELDS.filter((f) => f.secret).map((f) => f.api),
);

/**
 * Secret settings whose reference says more than `<spec>SecretRef` would (the platform's
 * `AWSSigningKey` is the access key id, `AWSSigningSecret` the secret access key).
 */
const SECRET_REF_NAMES: Readonly<Record<string, string>> = {
  awsSigningKey: 'awsSigningAccessKeyIdSecretRef',
  awsSigningSecret: 'awsSigningSecretAccessKeySecretRef',
};

/** Spec property of a secret setting: a Secret key reference (`logForwardingTokenSecretRef`). */
export function secretRefName(f: Pick<SettingField, 'spec'>): string {
  return SECRET_REF_NAMES[f.spec] ?? `${f.spec}SecretRef`;
}

/** The secret setting whose reference is the spec property `name`, by that name. */
export const SECRET_FIELDS_BY_REF: ReadonlyMap<string, SettingField> = new Map(
  SETTING_FIELDS.filter((f) => f.secret).map((f) => [secretRefName(f), f]),
);
