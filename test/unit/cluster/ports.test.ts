/** The control plane's ports cannot be handed to a `listen(0)` or an outgoing connection. */
import test from 'ava';
import { createServer } from 'node:net';
import { findFreePort, findFreePorts, pickRange, readEphemeralRange } from '../../cluster/ports.js';

const rangeCases: Array<[string, [number, number] | undefined, [number, number] | undefined]> = [
  ['Linux default', [32768, 60999], [10000, 32767]],
  ['wide ephemeral range leaves too few ports', [10500, 65535], undefined],
  ['unreadable range', undefined, undefined],
];
for (const [name, ephemeral, want] of rangeCases) {
  test(`pickRange: ${name}`, (t) => {
    t.deepEqual(pickRange(ephemeral), want);
  });
}

test('the ports lie below the ephemeral range, distinct and free', async (t) => {
  const ephemeral = readEphemeralRange();
  if (!ephemeral || !pickRange(ephemeral)) return t.pass('no room below the ephemeral range here');
  const ports = await findFreePorts(20);
  t.is(new Set(ports).size, 20);
  for (const port of ports) {
    t.true(port >= 10_000 && port < ephemeral[0], `${port} outside [${ephemeral.join(', ')}]`);
    // still free: a listener can take it
    await new Promise<void>((resolve, reject) => {
      const server = createServer().once('error', reject);
      server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
    });
  }
});

test('without a range to pick from, the OS picks', async (t) => {
  const port = await findFreePort(null);
  t.true(port > 0 && port < 65536);
  const ephemeral = readEphemeralRange();
  if (ephemeral) t.true(port >= ephemeral[0] && port <= ephemeral[1], `${port} from the OS`);
});
