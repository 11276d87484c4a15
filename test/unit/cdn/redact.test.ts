import test from 'ava';
import { inspect } from 'node:util';
import { maskKey, SecretSet } from '../../../src/cdn/redact.js';

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
