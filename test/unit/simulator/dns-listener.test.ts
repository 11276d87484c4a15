/**
 * cdn-sim's DNS listener (issue 52): the records the API wrote, read by a real resolver
 * (node:dns with the listener as its server) over UDP, and over TCP with a length-prefixed
 * query; names outside the simulated zones refused; NXDOMAIN and NODATA with the zone's SOA;
 * CNAMEs followed; a wildcard; disabled records not served; truncation over UDP.
 */
import test from 'ava';
import { Resolver } from 'node:dns/promises';
import { connect } from 'node:net';
import dnsPacket, { type DecodedPacket } from 'dns-packet';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { startTestSim } from '../../support/sim-client.js';
import { addRecord, addZone } from './dns-support.js';

let sim: SimulatorHandle;
let resolver: Resolver;

test.before(async (t) => {
  sim = await startTestSim({ dns: {} });
  resolver = new Resolver({ timeout: 2000, tries: 1 });
  resolver.setServers([sim.dnsAddress!]);
  const zoneId = await addZone(t, sim, 'listen.example');
  const records = [
    { Type: 0, Name: 'www', Value: '192.0.2.10', Ttl: 120 },
    { Type: 0, Name: 'www', Value: '192.0.2.11', Ttl: 120 },
    { Type: 1, Name: 'www', Value: '2001:db8::10' },
    { Type: 3, Name: '_acme-challenge', Value: 'token-one' },
    { Type: 3, Name: '_acme-challenge', Value: 'token-two' },
    { Type: 2, Name: 'alias', Value: 'www.listen.example' },
    { Type: 2, Name: 'away', Value: 'elsewhere.example.org' },
    { Type: 4, Name: '', Value: 'mx.listen.example', Priority: 10 },
    { Type: 0, Name: '*.apps', Value: '192.0.2.50' },
    { Type: 0, Name: 'off', Value: '192.0.2.99', Disabled: true },
    { Type: 3, Name: 'long', Value: 'x'.repeat(300) },
  ];
  for (const r of records) {
    const res = await addRecord(t, sim, zoneId, r);
    t.is(res.status, 201, JSON.stringify(res.body));
  }
  const big = await addZone(t, sim, 'big.example');
  for (let i = 0; i < 40; i++)
    await addRecord(t, sim, big, { Type: 3, Name: 'many', Value: `value number ${i} `.repeat(3) });
});

test.after.always(async () => {
  await sim?.close();
});

/** The resolver's error code for a query, or 'ok'. */
async function codeOf(query: () => Promise<unknown>): Promise<string> {
  try {
    await query();
    return 'ok';
  } catch (err) {
    return String((err as { code?: string }).code);
  }
}

const ANSWERS: Array<{ why: string; run: () => Promise<unknown>; expected: unknown }> = [
  {
    why: 'A records, both',
    run: async () => (await resolver.resolve4('www.listen.example')).sort(),
    expected: ['192.0.2.10', '192.0.2.11'],
  },
  {
    why: 'an AAAA record',
    run: () => resolver.resolve6('WWW.listen.example'),
    expected: ['2001:db8::10'],
  },
  {
    why: 'two TXT records of one name (two challenges for one name)',
    run: async () => (await resolver.resolveTxt('_acme-challenge.listen.example')).flat().sort(),
    expected: ['token-one', 'token-two'],
  },
  {
    why: 'a TXT value over 255 bytes, in chunks',
    run: async () => (await resolver.resolveTxt('long.listen.example'))[0]!.join(''),
    expected: 'x'.repeat(300),
  },
  {
    why: 'a CNAME followed inside the simulated zones',
    run: async () => (await resolver.resolve4('alias.listen.example')).sort(),
    expected: ['192.0.2.10', '192.0.2.11'],
  },
  {
    why: 'the CNAME itself',
    run: () => resolver.resolveCname('alias.listen.example'),
    expected: ['www.listen.example'],
  },
  {
    why: 'the apex MX',
    run: async () =>
      (await resolver.resolveMx('listen.example')).map((m) => [m.exchange, m.priority]),
    expected: [['mx.listen.example', 10]],
  },
  {
    why: 'the apex NS the platform keeps',
    run: async () => (await resolver.resolveNs('listen.example')).sort(),
    expected: ['coco.bunny.net', 'kiki.bunny.net'],
  },
  {
    why: 'the SOA',
    run: async () => {
      const soa = await resolver.resolveSoa('listen.example');
      return [soa.nsname, soa.hostmaster];
    },
    expected: ['kiki.bunny.net', 'hostmaster.bunny.net'],
  },
  {
    why: 'a wildcard',
    run: () => resolver.resolve4('shop.apps.listen.example'),
    expected: ['192.0.2.50'],
  },
];

for (const c of ANSWERS)
  test(`over UDP: ${c.why}`, async (t) => {
    t.deepEqual(await c.run(), c.expected);
  });

const REFUSALS: Array<{ why: string; run: () => Promise<unknown>; code: string }> = [
  {
    why: 'a name in no simulated zone is refused',
    run: () => resolver.resolve4('www.not-simulated.example'),
    code: 'EREFUSED',
  },
  {
    why: 'a name without records is NXDOMAIN',
    run: () => resolver.resolve4('nothing.listen.example'),
    code: 'ENOTFOUND',
  },
  {
    why: 'a name with records but none of the type is NODATA',
    run: () => resolver.resolveTxt('www.listen.example'),
    code: 'ENODATA',
  },
  {
    why: 'a disabled record is not served',
    run: () => resolver.resolve4('off.listen.example'),
    code: 'ENOTFOUND',
  },
];

for (const c of REFUSALS)
  test(`over UDP: ${c.why}`, async (t) => {
    t.is(await codeOf(c.run), c.code);
  });

test('a record written through the API is served at once', async (t) => {
  const zoneId = await addZone(t, sim, 'fresh.example');
  t.is(await codeOf(() => resolver.resolveTxt('_acme-challenge.fresh.example')), 'ENOTFOUND');
  await addRecord(t, sim, zoneId, { Type: 3, Name: '_acme-challenge', Value: 'now' });
  t.deepEqual(await resolver.resolveTxt('_acme-challenge.fresh.example'), [['now']]);
});

/** One query over TCP (RFC 1035 section 4.2.2 framing). */
function queryTcp(name: string, type: 'TXT' | 'A'): Promise<DecodedPacket> {
  const [host, port] = sim.dnsAddress!.split(':');
  return new Promise((resolve, reject) => {
    const conn = connect(Number(port), host);
    let buffered = Buffer.alloc(0);
    conn.on('error', reject);
    conn.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length >= 2 && buffered.length >= 2 + buffered.readUInt16BE(0)) {
        conn.end();
        resolve(dnsPacket.streamDecode(buffered) as DecodedPacket);
      }
    });
    conn.write(dnsPacket.streamEncode({ type: 'query', id: 7, questions: [{ type, name }] }));
  });
}

test('over TCP: a CNAME leaving the simulated zones ends the chain (the server is not recursive)', async (t) => {
  const answer = await queryTcp('away.listen.example', 'A');
  t.is((answer as { rcode?: string }).rcode, 'NOERROR');
  t.deepEqual(
    answer.answers?.map((a) => [a.type, (a as { data: unknown }).data]),
    [['CNAME', 'elsewhere.example.org']],
  );
});

test('over TCP: an answer too large for UDP is whole', async (t) => {
  const answer = await queryTcp('many.big.example', 'TXT');
  t.is(answer.answers?.length, 40);
  t.true(answer.flag_aa);
  t.false(answer.flag_tc);
});

test('over UDP without EDNS, a large answer is truncated so that the client retries over TCP', async (t) => {
  const { createSocket } = await import('node:dgram');
  const [host, port] = sim.dnsAddress!.split(':');
  const socket = createSocket('udp4');
  const reply = await new Promise<DecodedPacket>((resolve) => {
    socket.on('message', (msg) => resolve(dnsPacket.decode(msg)));
    socket.send(
      dnsPacket.encode({
        type: 'query',
        id: 9,
        questions: [{ type: 'TXT', name: 'many.big.example' }],
      }),
      Number(port),
      host,
    );
  });
  socket.close();
  t.true(reply.flag_tc);
  t.is(reply.answers?.length ?? 0, 0);
  // The resolver retries over TCP by itself.
  t.is((await resolver.resolveTxt('many.big.example')).length, 40);
});

test('no listener unless asked', async (t) => {
  const plain = await startTestSim();
  t.is(plain.dnsAddress, undefined);
  await plain.close();
});
