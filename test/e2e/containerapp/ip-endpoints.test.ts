/**
 * ContainerApp Anycast endpoints end to end (issue 48): the apiserver accepts the anycast block,
 * the operator creates the endpoint through the documented request, status shows its type,
 * anycast address and exposed ports, and switching it to a CDN endpoint replaces it; cdn-sim
 * (strict) rejects none of the operator's requests.
 */
import test from 'ava';
import type { EndpointStatus } from '../../../src/controllers/containerapp/types.js';
import { apply } from '../support/kube.js';
import { cappYaml, container, startEnv, waitCondition, waitObject, type Env } from './setup.js';

let env: Env;

test.before(async () => {
  env = await startEnv('e2e-capp-ip');
});

test.after.always(async () => {
  await env?.stop();
});

function endpointOf(obj: { status?: Record<string, unknown> }): EndpointStatus | undefined {
  const containers = obj.status?.containers as { endpoints: EndpointStatus[] }[] | undefined;
  return containers?.[0]?.endpoints.find((e) => e.displayName === 'game');
}

function spec(endpoint: Record<string, unknown>): Record<string, unknown> {
  return {
    name: 'anycast app',
    autoScaling: { min: 1, max: 1 },
    regionSettings: { allowedRegionIds: ['DE', 'NY'], requiredRegionIds: ['DE'] },
    containerTemplates: [
      container('web', 'nginx', '1.25', { endpoints: [{ displayName: 'game', ...endpoint }] }),
    ],
  };
}

test.serial('an Anycast endpoint is created, reported, and replaced by a CDN one', async (t) => {
  const anycast = { anycast: { portMappings: [{ containerPort: 7777, protocols: ['UDP'] }] } };
  await apply(cappYaml(env.ns, 'anycast', spec(anycast)));
  const ready = await waitCondition(env.ns, 'anycast', 'Ready', 'True');
  const game = endpointOf(ready);
  t.is(game?.type, 'Anycast');
  t.deepEqual(game?.portMappings, [{ containerPort: 7777, exposedPort: 7777, protocols: ['UDP'] }]);
  t.deepEqual(game?.publicIpAddresses?.map((a) => a.region).sort(), ['DE', 'NY']);
  t.is(game?.publicHost, game?.publicIpAddresses?.[0]?.address);
  t.is(game?.pullZoneId, undefined);

  await apply(cappYaml(env.ns, 'anycast', spec({ cdn: { sslEnabled: true } })));
  const switched = await waitObject(
    env.ns,
    'anycast',
    (o) => endpointOf(o)?.type === 'CDN',
    'the endpoint replaced by a CDN one',
  );
  t.not(endpointOf(switched)?.id, game?.id, 'a new endpoint');
  t.truthy(endpointOf(switched)?.pullZoneId);
  t.is(env.sim.calls.snapshot().rejectedByDocument.count, 0, 'nothing rejected by the documents');
});
