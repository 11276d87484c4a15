/**
 * How the `echoBodyRoutes` fault spells what it repeats. Platforms that quote a refused request
 * do not always quote it as sent: some URL-encode it (a value carried into a redirect or a query
 * string), some HTML-escape it (an error page), with either hex case, `+` or `%20` for a space,
 * `&#39;` or `&#x27;` for an apostrophe. Each spelling here follows one real encoder, written
 * independently of the operator's redactor (src/cdn/secret-spellings.ts) so that tests of the
 * one against the other can fail.
 */

/** The spellings the fault can repeat the request in. */
export const ECHO_ENCODINGS = [
  /** As sent. */
  'raw',
  /** As a JSON string (escaped once more). */
  'json',
  /** encodeURIComponent: percent-encoding, upper-case hex, `%20` for a space. */
  'url',
  /** Percent-encoding with lower-case hex. */
  'url-lower',
  /** application/x-www-form-urlencoded as URLSearchParams writes it: `+` for a space. */
  'form',
  /** HTML-escaped as .NET's HtmlEncode does: `&amp; &lt; &gt; &quot; &#39;`. */
  'html',
  /** HTML-escaped with hexadecimal entities: `&#x26; &#x3C; &#x3E; &#x22; &#x27;`. */
  'html-hex',
] as const;

/** One of {@link ECHO_ENCODINGS}. */
export type EchoEncoding = (typeof ECHO_ENCODINGS)[number];

const HTML_NAMED: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

const ENCODERS: Record<EchoEncoding, (text: string) => string> = {
  raw: (text) => text,
  json: (text) => JSON.stringify(text).slice(1, -1),
  url: encodeURIComponent,
  'url-lower': (text) => encodeURIComponent(text).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
  form: (text) => new URLSearchParams({ v: text }).toString().slice('v='.length),
  html: (text) => text.replace(/[&<>"']/g, (ch) => HTML_NAMED[ch]!),
  'html-hex': (text) =>
    text.replace(/[&<>"']/g, (ch) => `&#x${ch.charCodeAt(0).toString(16).toUpperCase()};`),
};

/** `text` spelled as `encoding` says. */
export function encodeEcho(text: string, encoding: EchoEncoding): string {
  return ENCODERS[encoding](text);
}

/** True when `value` is a list of known encodings. */
export function isEchoEncodingList(value: unknown): value is EchoEncoding[] {
  return (
    Array.isArray(value) &&
    value.every((v) => typeof v === 'string' && (ECHO_ENCODINGS as readonly string[]).includes(v))
  );
}
