/**
 * The write fence inside the CDN client: a pass of a replica that lost its lease sends no
 * platform write, even when the lease is lost between two calls of one update (the
 * ExternalClient-level fence runs once per update, before the first call).
 */
import test from 'ava';
import { CdnApiError } from '../../../src/cdn/errors.js';
import { runInPass } from '../../../src/common/pass-context.js';
import { startSimClient } from './sim-harness.js';

test('a write made after the lease is lost mid-pass never reaches the platform', async (t) => {
  const h = await startSimClient(t);
  const zone = await h.client.addPullZone({ Name: 'fenced-zone', OriginUrl: 'https://o.example' });
  let leader = true;
  const sentBefore = h.sent.length;
  const err = await runInPass({ priority: 'high', mayWrite: () => leader }, async () => {
    // First call of the "update" goes out while still leader...
    await h.client.updatePullZone(zone.Id!, { OriginUrl: 'https://first.example' });
    // ...then the process is frozen past its renew deadline (SIGSTOP) and resumes.
    leader = false;
    const reads = await h.client.getPullZone(zone.Id!);
    t.is(reads.OriginUrl, 'https://first.example', 'reads still pass');
    return t.throwsAsync(
      h.client.updatePullZone(zone.Id!, { OriginUrl: 'https://second.example' }),
      { instanceOf: CdnApiError },
    );
  });
  t.regex(err?.message ?? '', /no longer the leader/);
  t.is(h.sent.length - sentBefore, 1, 'only the write made while leader was sent');
  t.is((await h.client.getPullZone(zone.Id!)).OriginUrl, 'https://first.example');
});

test('outside a fenced pass (CLI, tests) writes go out as before', async (t) => {
  const h = await startSimClient(t);
  const zone = await h.client.addPullZone({
    Name: 'unfenced-zone',
    OriginUrl: 'https://o.example',
  });
  await runInPass({ priority: 'low' }, () =>
    h.client.updatePullZone(zone.Id!, { OriginUrl: 'https://next.example' }),
  );
  t.is((await h.client.getPullZone(zone.Id!)).OriginUrl, 'https://next.example');
});
