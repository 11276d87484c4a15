/**
 * The platform names HTTP status codes in probe settings (`httpGet.response.expectedStatusCode`)
 * by the enum of the Magic Containers document (`HttpStatusCode`: `ok`, `notFound`, ...), not
 * by number. This table maps each documented name to its code, so a spec may say `200`.
 */

/** Documented status name -> numeric code, in the document's order. */
export const HTTP_STATUS_CODES = {
  continue: 100,
  switchingProtocols: 101,
  processing: 102,
  earlyHints: 103,
  ok: 200,
  created: 201,
  accepted: 202,
  nonAuthoritativeInformation: 203,
  noContent: 204,
  resetContent: 205,
  partialContent: 206,
  multiStatus: 207,
  alreadyReported: 208,
  imUsed: 226,
  multipleChoices: 300,
  movedPermanently: 301,
  found: 302,
  seeOther: 303,
  notModified: 304,
  useProxy: 305,
  unused: 306,
  temporaryRedirect: 307,
  permanentRedirect: 308,
  badRequest: 400,
  unauthorized: 401,
  paymentRequired: 402,
  forbidden: 403,
  notFound: 404,
  methodNotAllowed: 405,
  notAcceptable: 406,
  proxyAuthenticationRequired: 407,
  requestTimeout: 408,
  conflict: 409,
  gone: 410,
  lengthRequired: 411,
  preconditionFailed: 412,
  requestEntityTooLarge: 413,
  requestUriTooLong: 414,
  unsupportedMediaType: 415,
  requestedRangeNotSatisfiable: 416,
  expectationFailed: 417,
  misdirectedRequest: 421,
  unprocessableEntity: 422,
  locked: 423,
  failedDependency: 424,
  upgradeRequired: 426,
  preconditionRequired: 428,
  tooManyRequests: 429,
  requestHeaderFieldsTooLarge: 431,
  unavailableForLegalReasons: 451,
  internalServerError: 500,
  notImplemented: 501,
  badGateway: 502,
  serviceUnavailable: 503,
  gatewayTimeout: 504,
  httpVersionNotSupported: 505,
  variantAlsoNegotiates: 506,
  insufficientStorage: 507,
  loopDetected: 508,
  notExtended: 510,
  networkAuthenticationRequired: 511,
} as const;

/** A documented status name. */
export type HttpStatusName = keyof typeof HTTP_STATUS_CODES;

/** Every documented status name. */
export const HTTP_STATUS_NAMES = Object.keys(HTTP_STATUS_CODES) as HttpStatusName[];

const BY_CODE = new Map<number, HttpStatusName>(
  HTTP_STATUS_NAMES.map((name) => [HTTP_STATUS_CODES[name], name]),
);

/**
 * The documented name of a status given as a name (`ok`), a number (`200`) or a numeric
 * string (`"200"`); undefined when the platform has no such status.
 */
export function toHttpStatusName(value: string | number): HttpStatusName | undefined {
  if (typeof value === 'number') return BY_CODE.get(value);
  if (/^\d{3}$/.test(value)) return BY_CODE.get(Number(value));
  return value in HTTP_STATUS_CODES ? (value as HttpStatusName) : undefined;
}

/** The code of a documented status name (`ok` -> 200); undefined for an unknown name. */
export function toHttpStatusCode(name: string): number | undefined {
  return name in HTTP_STATUS_CODES ? HTTP_STATUS_CODES[name as HttpStatusName] : undefined;
}
