/**
 * The spellings of one character in text that reaches a log line, an Event, a status or an
 * error. A secret sent in a JSON body is JSON-escaped there; a platform that echoes the body
 * may URL-encode it (in a redirect or query string) or HTML-escape it (in an error page); the
 * client's error then lands in a JSON log line, escaped once more. Encoders differ in which
 * characters they touch and how (`%2f` or `%2F`, `+` or `%20` for a space, `&#39;`, `&#x27;`,
 * `&#039;` or `&apos;`), so each style below follows one real encoder, named in its comment.
 *
 * A character's spellings are: itself, each style applied once or twice (a JSON body echoed
 * URL-encoded), and each of those JSON-escaped once or twice more (a JSON log line, quoting an
 * error that may itself quote a JSON text). Letters, digits and `-._` are spelled one way only:
 * no encoder touches them (not even OWASP ESAPI's, which encodes every other character).
 */

/** One encoding style: the spelling of one character (a code point) in that style. */
type Style = (ch: string) => string;

/** The characters no encoder changes: letters, digits and `-._`. */
const PLAIN = 'A-Za-z0-9._-';
const SAFE = new RegExp(`^[${PLAIN}]$`);

/** Runs of plain characters (use with String.prototype.match). */
export const PLAIN_RUNS = new RegExp(`[${PLAIN}]+`, 'g');

/** True when no style changes `ch`: letters, digits and `-._`. */
export function isPlainChar(ch: string): boolean {
  return SAFE.test(ch);
}

const hex = (n: number, width: number): string => n.toString(16).toUpperCase().padStart(width, '0');

/** `\uXXXX` per UTF-16 code unit. */
const unicodeEscape = (ch: string): string =>
  [...Array(ch.length).keys()].map((i) => `\\u${hex(ch.charCodeAt(i), 4)}`).join('');

/** Percent-encoding of the UTF-8 bytes of `ch`, upper-case hex. */
const percent = (ch: string): string =>
  [...Buffer.from(ch, 'utf8')].map((b) => `%${hex(b, 2)}`).join('');

/** A URL style: `keep` is left as it is, a space may become `+`, the rest is percent-encoded. */
const urlStyle =
  (keep: RegExp, plusForSpace: boolean): Style =>
  (ch) => {
    if (keep.test(ch)) return ch;
    return plusForSpace && ch === ' ' ? '+' : percent(ch);
  };

const jsonStd: Style = (ch) => JSON.stringify(ch).slice(1, -1);

/** System.Text.Json's default encoder (.NET): HTML-sensitive characters and non-ASCII as `\u`. */
const jsonDotNet: Style = (ch) => {
  if (ch === '\\' || ch < ' ') return jsonStd(ch);
  return /^[&<>'"+`]$/.test(ch) || ch > '~' ? unicodeEscape(ch) : ch;
};

const NAMED: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const decimalEntity = (ch: string): string => `&#${ch.codePointAt(0)};`;
const hexEntity = (ch: string): string => `&#x${hex(ch.codePointAt(0)!, 1)};`;

/** An HTML style: `&<>"` named, the apostrophe as given, other characters as `other` says. */
const htmlStyle =
  (apostrophe: string, other: (ch: string) => string = (ch) => ch): Style =>
  (ch) =>
    ch === "'" ? apostrophe : (NAMED[ch] ?? other(ch));

/** Every non-plain character as a numeric entity (encoders' "encode everything" modes). */
const entityEverything =
  (entity: (ch: string) => string): Style =>
  (ch) =>
    isPlainChar(ch) ? ch : entity(ch);

/** Only `&<>"'` and `` ` `` and non-ASCII, as hexadecimal entities (the `he` package's encode). */
const hexSensitive: Style = (ch) => (/^[&<>"'`]$/.test(ch) || ch > '~' ? hexEntity(ch) : ch);

const STYLES: readonly Style[] = [
  jsonStd,
  // PHP's json_encode and some Java serializers also escape the solidus.
  (ch) => (ch === '/' ? '\\/' : jsonStd(ch)),
  jsonDotNet,
  // encodeURIComponent
  urlStyle(/^[A-Za-z0-9\-_.!~*'()]$/, false),
  // application/x-www-form-urlencoded as URLSearchParams and Java's URLEncoder write it
  urlStyle(/^[A-Za-z0-9*\-._]$/, true),
  // .NET WebUtility.UrlEncode and HttpUtility.UrlEncode
  urlStyle(/^[A-Za-z0-9\-_.!*()]$/, true),
  // RFC 3986 unreserved only: .NET Uri.EscapeDataString, Python quote(safe='')
  urlStyle(/^[A-Za-z0-9\-._~]$/, false),
  // Python quote_plus
  urlStyle(/^[A-Za-z0-9\-._~]$/, true),
  // .NET WebUtility.HtmlEncode: Latin-1 supplement and astral characters as decimal entities
  htmlStyle('&#39;', (ch) =>
    (ch >= '\u00a0' && ch <= '\u00ff') || ch.length > 1 ? decimalEntity(ch) : ch,
  ),
  // Python html.escape, Handlebars (which also escapes ` and =)
  htmlStyle('&#x27;', (ch) => (ch === '`' || ch === '=' ? hexEntity(ch) : ch)),
  // PHP htmlspecialchars with ENT_QUOTES
  htmlStyle('&#039;'),
  // XML and HTML5 serializers
  htmlStyle('&apos;'),
  // OWASP Java Encoder: quotes as decimal entities
  (ch) => (ch === '"' ? '&#34;' : htmlStyle('&#39;')(ch)),
  hexSensitive,
  entityEverything(decimalEntity),
  entityEverything(hexEntity),
];

/** `text` in `style`, character by character (code points). */
function spell(text: string, style: Style): string {
  let out = '';
  for (const ch of text) out += style(ch);
  return out;
}

/** `forms` with each style applied to each form added. */
function widen(forms: ReadonlySet<string>, styles: readonly Style[]): Set<string> {
  const out = new Set(forms);
  for (const form of forms) for (const style of styles) out.add(spell(form, style));
  return out;
}

/**
 * Every spelling of the character `ch` (one code point), longest first (so that a pattern
 * built from them takes a whole escape, never a prefix of it). Hexadecimal digits are
 * upper-case: match them case-insensitively.
 */
export function spellingsOfChar(ch: string): string[] {
  if (isPlainChar(ch)) return [ch];
  const twice = widen(widen(new Set([ch]), STYLES), STYLES);
  // A JSON log line quoting an error that quotes a JSON document: two more JSON escapes.
  const all = widen(widen(twice, [jsonStd]), [jsonStd]);
  return [...all].sort((a, b) => b.length - a.length);
}
