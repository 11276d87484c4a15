/**
 * `cdnctl diff` of an observe-only object (issue 48): applying it writes nothing, so it is
 * reported unchanged with a note and its planner is never asked (no platform read either).
 * Failing first: the planner compared its spec like a managed object's and reported the
 * differing settings as an update.
 */
import test from 'ava';
import type { CdnClient } from '../../../src/cdn/client.js';
import { diffManifests, OBSERVE_ONLY_NOTE } from '../../../src/cli/diff/diff-manifests.js';
import type { Manifest } from '../../../src/cli/diff/manifests.js';
import { apiVersionOfKind } from '../../../src/controllers/kinds.js';

/** A client every call of which fails the test. */
const untouchable = new Proxy({} as CdnClient, {
  get: (_t, prop) => {
    if (prop === 'then') return undefined;
    return () => {
      throw new Error(`unexpected platform call ${String(prop)}`);
    };
  },
});

const CASES: Array<{ kind: string; spec: Record<string, unknown> }> = [
  {
    kind: 'PullZoneConfig',
    spec: { adoption: { policy: 'ById', id: 7 }, originUrl: 'https://example.com' },
  },
  { kind: 'DnsZone', spec: { domain: 'example.com', adoption: { policy: 'ByName' } } },
];

for (const c of CASES)
  test(`an observe-only ${c.kind} is unchanged, with a note, and nothing is read`, async (t) => {
    const manifest = {
      apiVersion: apiVersionOfKind(c.kind),
      kind: c.kind,
      metadata: { name: 'seen', namespace: 'team-a' },
      spec: { ...c.spec, managementPolicy: 'Observe' },
    } as unknown as Manifest;
    const report = await diffManifests(untouchable, [manifest]);
    t.is(report.exitCode, 0);
    t.like(report.entries[0], { plan: { action: 'none', diffs: [], note: OBSERVE_ONLY_NOTE } });
  });
