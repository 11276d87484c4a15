import test from 'ava';
import { inspect } from 'node:util';
import { maskKey, SecretRegistry, SecretSet } from '../../../src/cdn/redact.js';

test('SecretSet scrubs every occurrence and hides itself', (t) => {
  const s = new SecretSet();
  s.add('super-secret-key-123');
  s.add('short'); // too short to be a credential: ignored
  t.is(s.scrub('a super-secret-key-123 b super-secret-key-123'), 'a [REDACTED] b [REDACTED]');
  t.is(s.scrub('short words stay'), 'short words stay');
  t.false(JSON.stringify(s).includes('super-secret'));
  t.false(inspect(s, { depth: Infinity, showHidden: true }).includes('super-secret'));
});

test('maskKey shows only the ends of long keys and nothing of short ones', (t) => {
  t.is(maskKey('abcd1234567890wxyz'), 'abcd…wxyz');
  t.is(maskKey('abc123'), '****');
  t.is(maskKey(null), '');
});

// A password with every character the encoders below treat differently: space, quotes, the
// HTML-sensitive five, the URL-reserved ones, a backslash, a newline and non-ASCII.
const VALUE = `Pa ss/+="x'<&>~!*(é)\\n\nw0rd`;

const json = (s: string): string => JSON.stringify(s).slice(1, -1);
const lowerHex = (s: string): string => s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
const b64url = (s: string): string => Buffer.from(s, 'utf8').toString('base64url');
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
/** Every character but letters and digits as a numeric entity (encode-everything modes). */
const entities =
  (radix: 10 | 16, upper = true) =>
  (s: string): string =>
    [...s]
      .map((c) => {
        if (/[A-Za-z0-9]/.test(c)) return c;
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
const FORMS: Array<[string, (s: string) => string]> = [
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

/** The two scrubbers: per client (API key, sent secrets) and process-wide (Secret values). */
const SCRUBBERS: Array<[string, (value: string) => (text: string) => string]> = [
  [
    'SecretSet',
    (value) => {
      const s = new SecretSet();
      s.add(value);
      return (text) => s.scrub(text);
    },
  ],
  [
    'SecretRegistry',
    (value) => {
      const r = new SecretRegistry();
      r.set('ns/creds/password', value);
      return (text) => r.scrub(text);
    },
  ],
];

for (const [scrubber, make] of SCRUBBERS) {
  for (const [what, encode] of FORMS) {
    test(`${scrubber} scrubs the value whole, ${what}`, (t) => {
      const encoded = encode(VALUE);
      t.not(encoded, VALUE.repeat(2), 'the form is computed');
      const scrub = make(VALUE);
      // Base64 padding reveals nothing and may stay; nothing else of the form may.
      const padding = /(?:=|%3D)*$/i.exec(encoded)![0];
      t.is(scrub(`before ${encoded} after`), `before [REDACTED]${padding} after`, encoded);
    });
  }
}

test('every form above is distinct, so each case tests something of its own', (t) => {
  const forms = FORMS.map(([, encode]) => encode(VALUE));
  t.is(new Set(forms).size, forms.length);
});

/** Values and texts that must not be touched: [reason, value, text]. */
const UNTOUCHED: Array<[string, string, string]> = [
  ['another value differing in one character', 'Pa ss/+="x', 'Pa ss/+="y'],
  ['a value with the space spelled as a different character', 'pass word-12', 'pass_word-12'],
  ['a value shorter than 8 characters', 'p@ss w', 'p@ss w'],
  ['the value cut short', 'abc%def/ghij', 'abc%25def%2Fghi'],
];

for (const [what, value, text] of UNTOUCHED) {
  test(`scrubbing leaves alone ${what}`, (t) => {
    const s = new SecretSet();
    s.add(value);
    t.is(s.scrub(`x ${text} y`), `x ${text} y`);
  });
}

test('a value made of letters, digits and -._ is scrubbed in its raw and base64 forms', (t) => {
  const value = 'plain-API_key.012345678';
  const s = new SecretSet();
  s.add(value);
  t.is(s.scrub(`${value} ${b64(value)} ${b64url(value)}`), '[REDACTED] [REDACTED]= [REDACTED]');
});

test('a value inside a longer registered value leaves nothing of the longer one', (t) => {
  const r = new SecretRegistry();
  r.set('a', 'token-0123456789');
  r.set('b', 'token-0123456789-suffix');
  t.is(r.scrub('x token-0123456789-suffix y'), 'x [REDACTED] y');
});

test('the registry keeps one compiled value per distinct value and forgets it with its sources', (t) => {
  const r = new SecretRegistry();
  r.set('ns/a/key', 'shared-value-0123');
  r.set('ns/b/key', 'shared-value-0123');
  r.forget('ns/a/');
  t.is(r.scrub('shared-value-0123'), '[REDACTED]', 'still held by ns/b');
  r.set('ns/b/key', 'rotated-value-4567');
  t.is(r.scrub('shared-value-0123 rotated-value-4567'), 'shared-value-0123 [REDACTED]');
  t.is(r.size, 1);
});
