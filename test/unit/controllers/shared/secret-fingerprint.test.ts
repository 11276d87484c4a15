/**
 * The fingerprint of a Secret-sourced value (shared/secret-fingerprint.ts): the digests a
 * ContainerRegistry's password and a ContainerApp's log-forwarding token already had in status
 * before they shared it (pinned, so no recorded fingerprint changes and nothing is re-sent), and
 * the salt doing its work.
 */
import test from 'ava';
import { fingerprintSecretValue } from '../../../../src/controllers/shared/secret-fingerprint.js';
import { passwordFingerprint } from '../../../../src/controllers/containerregistry/credentials.js';
import { tokenFingerprint } from '../../../../src/controllers/containerapp/log-forwarding.js';

const PINNED: { reason: string; got: () => string; want: string }[] = [
  {
    reason: 'a registry password keeps the fingerprint status recorded before',
    got: () => passwordFingerprint('uid-1', 'hunter2'),
    want: 'sha256:5837260fa9894cb83c77630f7429a3cea9640af8663ed2f123b819ebabad5c51',
  },
  {
    reason: 'a log-forwarding token without a uid keeps its fingerprint',
    got: () => tokenFingerprint(undefined, 'tok'),
    want: 'sha256:17e775cfb320742642cbeaeccafd0ac1880164dcd0302bbcab336c7785a8f73a',
  },
  {
    reason: 'an edge script secret: the scope names the secret',
    got: () => fingerprintSecretValue('edgescript/secret/API_TOKEN', 'uid-2', 'v'),
    want: 'sha256:368f7e7870afe37410bb5460d8c0f7c2791276fdf2c2efe68409cdfe9921c65c',
  },
];

for (const c of PINNED) test(`pinned: ${c.reason}`, (t) => t.is(c.got(), c.want));

const DIFFERENT: {
  reason: string;
  a: [string, string | undefined, string];
  b: [string, string | undefined, string];
}[] = [
  { reason: 'another object (uid) gives another digest', a: ['s', 'u1', 'v'], b: ['s', 'u2', 'v'] },
  { reason: 'another scope gives another digest', a: ['s1', 'u', 'v'], b: ['s2', 'u', 'v'] },
  { reason: 'another value gives another digest', a: ['s', 'u', 'v1'], b: ['s', 'u', 'v2'] },
];

for (const c of DIFFERENT) {
  test(`differs: ${c.reason}`, (t) => {
    const a = fingerprintSecretValue(...c.a);
    t.not(a, fingerprintSecretValue(...c.b));
    t.false(a.includes(c.a[2]), 'the value is not in its fingerprint');
  });
}
