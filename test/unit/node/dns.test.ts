/**
 * The local node's cluster DNS (hack/node/dns.ts) answers a real resolver (node:dns with the
 * server set to it): Service names get their ClusterIP, everything else NXDOMAIN, a Service
 * name asked for AAAA gets an empty answer (so getaddrinfo falls back to A quickly).
 */
import test from 'ava';
import { Resolver } from 'node:dns/promises';
import { lookupName, startDnsServer } from '../../../hack/node/dns.js';

const services = new Map([
  ['web.shop', ['10.0.0.42']],
  ['headless.shop', []],
]);

test('lookupName maps <service>.<namespace>.svc.<domain> and nothing else', (t) => {
  const cases: [string, string[] | undefined][] = [
    ['web.shop.svc.cluster.local', ['10.0.0.42']],
    ['headless.shop.svc.cluster.local', []],
    ['web.other.svc.cluster.local', undefined],
    ['web.shop.svc.cluster.local.shop.svc.cluster.local', undefined],
    ['x.web.shop.svc.cluster.local', undefined],
    ['web.shop.svc.example.org', undefined],
    ['example.org', undefined],
  ];
  for (const [name, want] of cases)
    t.deepEqual(lookupName(name, 'cluster.local', services), want, name);
});

test('a real resolver gets A records, NXDOMAIN and empty AAAA answers', async (t) => {
  const socket = await startDnsServer({
    host: '127.0.0.1',
    port: 0,
    domain: 'cluster.local',
    services,
  });
  t.teardown(() => socket.close());
  const resolver = new Resolver({ timeout: 2000, tries: 1 });
  resolver.setServers([`127.0.0.1:${socket.address().port}`]);
  t.deepEqual(await resolver.resolve4('web.shop.svc.cluster.local'), ['10.0.0.42']);
  t.deepEqual(await resolver.resolve4('WEB.Shop.svc.cluster.local'), ['10.0.0.42']);
  await t.throwsAsync(resolver.resolve4('missing.shop.svc.cluster.local'), { code: 'ENOTFOUND' });
  await t.throwsAsync(resolver.resolve4('example.org'), { code: 'ENOTFOUND' });
  await t.throwsAsync(resolver.resolve6('web.shop.svc.cluster.local'), { code: 'ENODATA' });
});
