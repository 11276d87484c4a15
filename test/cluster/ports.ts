/**
 * Free loopback TCP ports for the local control plane.
 *
 * The ports are taken below the kernel's ephemeral range: a control plane keeps its apiserver's
 * address across `stopApiserver()`/`startApiserver()`, and while it is down any `listen(0)` (the
 * operator's probes, cdn-sim, another test's server) or outgoing connection of a parallel test
 * may be handed that very port from the ephemeral range; the restarted apiserver then exits with
 * "address already in use". Ports no one gets by asking for port 0 cannot be taken that way.
 */
import { createServer } from 'node:net';
import { readFileSync } from 'node:fs';
import { randomInt } from 'node:crypto';

/** The lowest port the control plane picks from (below it: well-known and registered services). */
const LOWEST_PORT = 10_000;
const RANGE_FILE = '/proc/sys/net/ipv4/ip_local_port_range';

/** The kernel's ephemeral port range `[low, high]`, or undefined where it cannot be read. */
export function readEphemeralRange(file = RANGE_FILE): [number, number] | undefined {
  try {
    const [low, high] = readFileSync(file, 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high)) return [low!, high!];
  } catch {
    // not Linux, or /proc not mounted
  }
  return undefined;
}

/** The ports below the ephemeral range to pick from, or undefined when there are too few. */
export function pickRange(
  ephemeral: [number, number] | null | undefined,
): [number, number] | undefined {
  if (!ephemeral) return undefined;
  const high = ephemeral[0] - 1;
  return high - LOWEST_PORT >= 1000 ? [LOWEST_PORT, high] : undefined;
}

function listenOn(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : undefined;
      server.close(() => resolve(bound));
    });
  });
}

/**
 * Returns a port that was free on 127.0.0.1 a moment ago: a random one below the ephemeral
 * range where the kernel leaves room for it, else one the OS picked.
 */
export async function findFreePort(
  // null, not undefined, says "no range": undefined would take this default again.
  ephemeral: [number, number] | null = readEphemeralRange() ?? null,
): Promise<number> {
  const range = pickRange(ephemeral);
  for (let attempt = 0; range && attempt < 50; attempt++) {
    const port = await listenOn(randomInt(range[0], range[1] + 1));
    if (port !== undefined) return port;
  }
  const port = await listenOn(0);
  if (port === undefined) throw new Error('cannot find a free port on 127.0.0.1');
  return port;
}

/** Returns `count` distinct free ports. */
export async function findFreePorts(count: number): Promise<number[]> {
  const ephemeral = readEphemeralRange() ?? null;
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await findFreePort(ephemeral));
  return [...ports];
}
