/**
 * The forms a secret value can take in text that leaves the operator, each written the way one
 * real encoder writes it (independently of src/cdn/secret-spellings.ts, so that a test of the
 * redactor against these can fail): raw, JSON-escaped, base64, URL-encoded, HTML-escaped, and
 * the combinations an echoing platform and a JSON log line make (issue 44).
 */

export const json = (s: string): string => JSON.stringify(s).slice(1, -1);
const lowerHex = (s: string): string => s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
export const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
export const b64url = (s: string): string => Buffer.from(s, 'utf8').toString('base64url');
const form = (s: string): string => new URLSearchParams({ v: s }).toString().slice(2);
/** .NET WebUtility.UrlEncode: `-_.!*()` kept, space as `+`, the rest percent-encoded. */
const dotnetUrl = (s: string): string =>
  encodeURIComponent(s)
    .replace(/[~']/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
/** RFC 3986 unreserved only (.NET Uri.EscapeDataString, Python quote): `!*'()` encoded too. */
const rfc3986 = (s: string): string =>
  encodeURIComponent(s).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
/** HTML escaping of `&<>"` by name and the apostrophe as given. */
const html =
  (apostrophe: string, quote = '&quot;') =>
  (s: string): string =>
    s
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, quote)
      .replace(/'/g, apostrophe);
/** .NET WebUtility.HtmlEncode: also Latin-1 characters as decimal entities. */
const dotnetHtml = (s: string): string =>
  html('&#39;')(s).replace(/[\u00a0-\u00ff]/g, (c) => `&#${c.charCodeAt(0)};`);
/**
 * Every character but letters, digits and `-._` as a numeric entity, as OWASP ESAPI's
 * encodeForHTML does (the widest encoder in use: none encodes those).
 */
const entities =
  (radix: 10 | 16, upper = true) =>
  (s: string): string =>
    [...s]
      .map((c) => {
        if (/[A-Za-z0-9._-]/.test(c)) return c;
        const n = c.codePointAt(0)!.toString(radix);
        if (radix === 10) return `&#${n};`;
        return upper ? `&#x${n.toUpperCase()};` : `&#x${n};`;
      })
      .join('');
/** System.Text.Json's default escaping (.NET): HTML-sensitive characters and non-ASCII as \u. */
const dotnetJson = (s: string): string =>
  json(s)
    .replace(
      /[&<>'"+`\u0080-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`,
    )
    .replace(/\\\\u0022/g, '\\u0022');

/** [form, reason]: each a way a platform or our own log writes the value. */
export const FORMS: Array<[string, (s: string) => string]> = [
  ['raw: a message quoting the value', (s) => s],
  ['JSON-escaped: a request body echoed in an error', json],
  ['JSON-escaped twice: that error inside a JSON log line', (s) => json(json(s))],
  ['System.Text.Json escapes: an echo from a .NET serializer', dotnetJson],
  ['base64: a key sent base64-encoded', b64],
  ['base64url: a key in a URL-safe token', b64url],
  ['URL-encoded, upper-case hex (encodeURIComponent)', encodeURIComponent],
  ['URL-encoded, lower-case hex (some platforms)', (s) => lowerHex(encodeURIComponent(s))],
  ['form-encoded: + for a space (URLSearchParams, Java URLEncoder)', form],
  ['form-encoded, lower-case hex (.NET HttpUtility.UrlEncode)', (s) => lowerHex(dotnetUrl(s))],
  ['form-encoded, upper-case hex (.NET WebUtility.UrlEncode)', dotnetUrl],
  ['RFC 3986 unreserved only (Uri.EscapeDataString)', rfc3986],
  ['HTML-escaped as .NET HtmlEncode does (&#39;, Latin-1 decimal)', dotnetHtml],
  ['HTML-escaped as escape-html and lodash do (&#39;)', html('&#39;')],
  ['HTML-escaped as Python html.escape does (&#x27;)', html('&#x27;')],
  ['HTML-escaped as PHP htmlspecialchars does (&#039;)', html('&#039;')],
  ['HTML-escaped as XML serializers do (&apos;)', html('&apos;')],
  ['HTML-escaped as the OWASP encoder does (&#34; &#39;)', html('&#39;', '&#34;')],
  ['decimal entities for every character', entities(10)],
  ['hexadecimal entities, upper case', entities(16)],
  ['hexadecimal entities, lower case', entities(16, false)],
  ['a JSON body echoed URL-encoded', (s) => encodeURIComponent(json(s))],
  ['a JSON body echoed form-encoded', (s) => form(json(s))],
  ['a JSON body echoed HTML-escaped', (s) => html('&#39;')(json(s))],
  ['a JSON body echoed HTML-escaped, in a JSON log line', (s) => json(html('&#39;')(json(s)))],
  ['a base64 key echoed URL-encoded', (s) => encodeURIComponent(b64(s))],
  ['a base64 key echoed by a .NET serializer (+ as \\u002B)', (s) => dotnetJson(b64(s))],
];

/** Every form of `value` in {@link FORMS}, and each of them JSON-escaped (inside a log line). */
export function leakForms(value: string): string[] {
  const forms = FORMS.map(([, encode]) => encode(value));
  return [...new Set([...forms, ...forms.map(json)])];
}
