import test from 'ava';
import { inspect } from 'node:util';
import { maskKey, SecretRegistry, SecretSet } from '../../../src/cdn/redact.js';
import { FORMS, b64, b64url } from '../../support/secret-forms.js';

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

/** Values of every shape the table files differently: [reason, value]. */
const SHAPES: Array<[string, (i: number) => string]> = [
  ['a plain API key', (i) => `plain-key-${i}-0123456789abcdef`],
  ['a password with special characters', (i) => `Pa ss/+="x'<&>~!*(é)\\n\nw0rd${i}`],
  ['a value whose anchor is shorter than a window', (i) => `!@#$%^&*${i % 10}!@#`],
  ['a value with no plain character at all', (i) => `!@#$%^&*()+${'~'.repeat((i % 5) + 1)}`],
];

test('with many values registered (the hashed table), each is scrubbed in every form', (t) => {
  const r = new SecretRegistry();
  const values: string[] = [];
  for (let i = 0; i < 200; i++) values.push(SHAPES[i % SHAPES.length]![1](i));
  values.forEach((v, i) => r.set(`ns/s${i}/k`, v));
  for (const [i, value] of values.entries()) {
    for (const [what, encode] of FORMS) {
      const encoded = encode(value);
      const padding = /(?:=|%3D)*$/i.exec(encoded)![0];
      const scrubbed = r.scrub(`before ${encoded} after`);
      if (scrubbed !== `before [REDACTED]${padding} after`)
        t.fail(`${SHAPES[i % SHAPES.length]![0]} #${i}, ${what}: ${scrubbed}`);
    }
  }
  t.pass();
});

test('with many values registered, a forgotten one is left alone and the others are not', (t) => {
  const r = new SecretRegistry();
  for (let i = 0; i < 100; i++) r.set(`ns/s${i}/k`, `value-number-${i}-abcdefgh`);
  for (let i = 0; i < 100; i += 2) r.forget(`ns/s${i}/`);
  t.is(r.scrub('value-number-10-abcdefgh'), 'value-number-10-abcdefgh', 'forgotten');
  t.is(r.scrub('value-number-11-abcdefgh'), '[REDACTED]', 'still held');
  t.is(r.size, 50);
});

test('a value inside a longer run of letters and digits is still found', (t) => {
  const r = new SecretRegistry();
  for (let i = 0; i < 100; i++) r.set(`ns/s${i}/k`, `token${i}x0123456789`);
  t.is(r.scrub('abctoken42x0123456789def'), 'abc[REDACTED]def');
});
