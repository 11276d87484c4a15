/**
 * The per-account adaptive rate is exposed as `cdn_operator_cdn_api_rate_limit`, labelled with
 * the account fingerprint (a hash of the key), never the key itself.
 */
import test from 'ava';
import { CdnClient } from '../../../src/cdn/client.js';
import { accountIdFor } from '../../../src/cdn/credentials.js';
import { accountRates } from '../../../src/cdn/rate-limit.js';
import { OperatorMetrics } from '../../../src/runtime/metrics.js';
import { startSimulator } from '../../../src/simulator/server.js';

test('the rate of each account is a gauge labelled by its fingerprint', async (t) => {
  const key = 'rate-metric-secret-key-value';
  const sim = await startSimulator({ apiKeys: [{ key }] });
  t.teardown(() => sim.close());
  const client = new CdnClient({
    baseUrl: sim.url,
    credentials: key,
    rateLimit: { requestsPerSecond: 7 },
  });
  t.teardown(() => client.close());
  await client.listPullZones();
  const metrics = new OperatorMetrics({ defaultMetrics: false });
  metrics.setAccountRateSource(accountRates);
  const text = await metrics.render();
  const account = accountIdFor(key);
  t.regex(text, new RegExp(`^cdn_operator_cdn_api_rate_limit\\{account="${account}"\\} 7$`, 'm'));
  t.false(text.includes(key), 'the key never appears in the metrics');
});
