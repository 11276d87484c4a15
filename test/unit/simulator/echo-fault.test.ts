/**
 * cdn-sim's echo fault (issue 44): a write on an `echoBodyRoutes` route is refused with a 400
 * quoting the request in each spelling of `echoBodyEncodings` (and its AccessKey with
 * `echoAccessKey`), in the area's documented error shape.
 */
import test from 'ava';
import { checkFaultConfig } from '../../../src/simulator/faults.js';
import { admin, call, createPullZone, startTestSim, TEST_KEY } from '../../support/sim-client.js';

const VALUE = `sec ret/+="x'<&>`;
const BODY = JSON.stringify({ OriginUrl: 'https://o.example.com', AWSSigningSecret: VALUE });

/** `text` with `& < > " '` replaced by the five entities given, in that order. */
function escapeHtml(text: string, entities: string[]): string {
  return [...'&<>"\''].reduce((out, ch, i) => out.replaceAll(ch, entities[i]!), text);
}

/** [encoding, how the body must appear, reason]: each spelled as one real encoder does. */
const SPELLINGS: Array<[string, string, string]> = [
  ['raw', BODY, 'as sent'],
  ['json', JSON.stringify(BODY).slice(1, -1), 'inside a JSON string'],
  ['url', encodeURIComponent(BODY), 'encodeURIComponent'],
  [
    'url-lower',
    encodeURIComponent(BODY).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
    'lower-case hex',
  ],
  ['form', new URLSearchParams({ v: BODY }).toString().slice(2), '+ for a space'],
  ['html', escapeHtml(BODY, ['&amp;', '&lt;', '&gt;', '&quot;', '&#39;']), '.NET HtmlEncode'],
  [
    'html-hex',
    escapeHtml(BODY, ['&#x26;', '&#x3C;', '&#x3E;', '&#x22;', '&#x27;']),
    'hexadecimal entities',
  ],
];

for (const [encoding, expected, reason] of SPELLINGS) {
  test(`the echo spelled ${encoding} (${reason})`, async (t) => {
    const sim = await startTestSim();
    t.teardown(() => sim.close());
    const id = await createPullZone(t, sim, 'echo-zone');
    await admin(sim, 'PUT', '/_sim/faults', {
      echoBodyRoutes: ['POST /pullzone/{id}'],
      echoBodyEncodings: [encoding],
    });
    const res = await call(t, sim, {
      area: 'core',
      method: 'POST',
      template: '/pullzone/{id}',
      params: { id },
      body: JSON.parse(BODY) as unknown,
    });
    t.is(res.status, 400);
    t.is(
      (res.body as { Message: string }).Message,
      `the request could not be processed: ${expected}`,
    );
  });
}

test('several spellings, and the AccessKey with echoAccessKey', async (t) => {
  const sim = await startTestSim();
  t.teardown(() => sim.close());
  await admin(sim, 'PUT', '/_sim/faults', {
    echoBodyRoutes: ['POST /mc/registries'],
    echoBodyEncodings: ['raw', 'url'],
    echoAccessKey: true,
  });
  const body = { displayName: 'r', passwordCredentials: { userName: 'u', password: VALUE } };
  const res = await call(t, sim, { area: 'mc', method: 'POST', template: '/mc/registries', body });
  t.is(res.status, 400);
  const quoted = `AccessKey: ${TEST_KEY} ${JSON.stringify(body)}`;
  t.regex(JSON.stringify(res.body), /could not be processed/);
  const detail = (res.body as { errors: Array<{ message: string }> }).errors[0]!.message;
  t.is(detail, `the request could not be processed: ${quoted} ${encodeURIComponent(quoted)}`);
});

const BAD: Array<[unknown, string]> = [
  [{ echoBodyEncodings: ['base64'] }, 'an unknown spelling'],
  [{ echoBodyEncodings: 'url' }, 'not a list'],
  [{ echoAccessKey: 'yes' }, 'echoAccessKey not a boolean'],
];
for (const [config, reason] of BAD) {
  test(`echo settings refused: ${reason}`, (t) => {
    t.truthy(checkFaultConfig(config));
  });
}
