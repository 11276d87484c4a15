/**
 * `GET /shield/waf/engine-config` answers the WAF engine defaults (it was 501): the vendor's
 * Terraform provider reads them on every shield zone read and parses each variable (issue 49).
 */
import test from 'ava';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { call, startTestSim } from '../../support/sim-client.js';

let sim: SimulatorHandle;
test.before(async () => {
  sim = await startTestSim();
});
test.after.always(async () => {
  await sim.close();
});

const VARIABLES: Array<[name: string, form: RegExp, why: string]> = [
  ['detection_paranoia_level', /^[1-4]$/, 'parsed as an integer'],
  ['executing_paranoia_level', /^[1-4]$/, 'parsed as an integer'],
  ['blocking_paranoia_level', /^[1-4]$/, 'parsed as an integer'],
  ['allowed_methods', /^[A-Z]+( [A-Z]+)*$/, 'methods split on spaces'],
  ['allowed_http_versions', /^HTTP\/\S+( HTTP\/\S+)*$/, 'versions split on spaces'],
  ['allowed_request_content_type', /^\|[^|]+\|( \|[^|]+\|)*$/, 'each type between bars'],
];

for (const [name, form, why] of VARIABLES) {
  test(`engine-config has ${name} (${why})`, async (t) => {
    const res = await call(t, sim, {
      area: 'shield',
      method: 'GET',
      template: '/shield/waf/engine-config',
    });
    t.is(res.status, 200);
    const data = (res.body as { data: Array<{ name: string; valueEncoded: string }> }).data;
    const found = data.find((v) => v.name === name);
    t.regex(found?.valueEncoded ?? '', form);
  });
}
