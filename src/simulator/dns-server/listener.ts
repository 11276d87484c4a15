/**
 * cdn-sim's optional DNS listener (issue 52): UDP and TCP on one port, answering from the
 * simulated zones (answers.ts), so that a resolver or an ACME server (Pebble's DNS-01 check)
 * reads what the API wrote. Off unless asked (`dns` option, `--dns-port`).
 *
 * UDP answers larger than the client can take (512 bytes, or its EDNS payload size, at most
 * 4096) are truncated (TC, no records) so that the client retries over TCP, as RFC 1035 and
 * RFC 6891 have it. A packet that does not decode is dropped (UDP) or ends the connection (TCP).
 */
import { createSocket, type Socket } from 'node:dgram';
import { createServer, type Server, type Socket as TcpSocket } from 'node:net';
import { listen } from '../../common/http-listener.js';
import dnsPacket, { type DecodedPacket, type Packet } from 'dns-packet';
import type { Logger } from 'pino';
import type { SimState } from '../state.js';
import { answerQuestion, RCODE } from './answers.js';

/** Options of the DNS listener. */
export interface DnsListenerOptions {
  /** Port for UDP and TCP; 0 (default) picks a free one. */
  port?: number;
}

/** A running DNS listener. */
export interface DnsListener {
  /** `host:port`, for a resolver's server list. */
  address: string;
  port: number;
  close(): Promise<void>;
}

const PLAIN_UDP_LIMIT = 512;
const MAX_UDP_LIMIT = 4096;
/** Attempts to find a port free for both UDP and TCP when the port is picked. */
const PORT_ATTEMPTS = 5;

/** The answer packet of `query`, as the state has it now. */
export function respond(state: SimState, query: DecodedPacket): Packet {
  const question = query.questions?.[0];
  const base = { type: 'response' as const, id: query.id ?? 0, questions: query.questions ?? [] };
  const rd = query.flag_rd ? dnsPacket.RECURSION_DESIRED : 0;
  if (!question || (query.questions?.length ?? 0) !== 1)
    return { ...base, flags: rd | RCODE.NOTIMP };
  const a = answerQuestion(state, question);
  const aa = a.authoritative ? dnsPacket.AUTHORITATIVE_ANSWER : 0;
  return { ...base, flags: aa | rd | a.rcode, answers: a.answers, authorities: a.authorities };
}

/** The UDP payload size the client takes (its EDNS OPT record, else 512). */
function udpLimitOf(query: DecodedPacket): number {
  const opt = query.additionals?.find((r) => r.type === 'OPT') as
    { udpPayloadSize?: number } | undefined;
  const size = opt?.udpPayloadSize ?? PLAIN_UDP_LIMIT;
  return Math.min(Math.max(size, PLAIN_UDP_LIMIT), MAX_UDP_LIMIT);
}

/** The encoded UDP answer, truncated (TC, no records) when too large for the client. */
function encodeForUdp(answer: Packet, limit: number): Buffer {
  const full = dnsPacket.encode(answer);
  if (full.length <= limit) return full;
  return dnsPacket.encode({
    ...answer,
    flags: (answer.flags ?? 0) | dnsPacket.TRUNCATED_RESPONSE,
    answers: [],
    authorities: [],
  });
}

function serveUdp(socket: Socket, state: SimState, log: Logger): void {
  socket.on('message', (msg, rinfo) => {
    let query: DecodedPacket;
    try {
      query = dnsPacket.decode(msg);
    } catch {
      log.debug({ from: rinfo.address }, 'Dropped an undecodable DNS packet');
      return;
    }
    const out = encodeForUdp(respond(state, query), udpLimitOf(query));
    socket.send(out, rinfo.port, rinfo.address);
  });
}

/** Serves one TCP connection: length-prefixed messages (RFC 1035 section 4.2.2). */
function serveTcpConnection(conn: TcpSocket, state: SimState): void {
  let buffered = Buffer.alloc(0);
  conn.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    while (buffered.length >= 2) {
      const size = buffered.readUInt16BE(0);
      if (buffered.length < 2 + size) return;
      const message = buffered.subarray(2, 2 + size);
      buffered = buffered.subarray(2 + size);
      try {
        conn.write(dnsPacket.streamEncode(respond(state, dnsPacket.decode(message))));
      } catch {
        conn.destroy();
        return;
      }
    }
  });
  conn.on('error', () => conn.destroy());
}

function bindUdp(port: number, host: string): Promise<Socket> {
  const socket = createSocket(host.includes(':') ? 'udp6' : 'udp4');
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, host, () => {
      socket.off('error', reject);
      resolve(socket);
    });
  });
}

/** UDP and TCP bound to one port (a picked port is tried again when TCP finds it taken). */
async function bindBoth(port: number, host: string): Promise<{ udp: Socket; tcp: Server }> {
  for (let attempt = 1; ; attempt++) {
    const udp = await bindUdp(port, host);
    const tcp = createServer();
    try {
      await listen(tcp, udp.address().port, host);
      return { udp, tcp };
    } catch (err) {
      udp.close();
      if (port !== 0 || attempt >= PORT_ATTEMPTS) throw err;
    }
  }
}

/** Starts the DNS listener on `host` (see the module comment). */
export async function startDnsListener(
  state: SimState,
  host: string,
  options: DnsListenerOptions,
  log: Logger,
): Promise<DnsListener> {
  const { udp, tcp } = await bindBoth(options.port ?? 0, host);
  serveUdp(udp, state, log);
  const open = new Set<TcpSocket>();
  tcp.on('connection', (conn) => {
    open.add(conn);
    conn.on('close', () => open.delete(conn));
    serveTcpConnection(conn, state);
  });
  const port = udp.address().port;
  return {
    address: `${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    close: async () => {
      await Promise.all([
        new Promise<void>((resolve) => udp.close(() => resolve())),
        new Promise<void>((resolve) => {
          tcp.close(() => resolve());
          for (const conn of open) conn.destroy();
        }),
      ]);
    },
  };
}
