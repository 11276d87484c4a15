/**
 * The few DNS wire-format pieces the local node's cluster DNS needs (RFC 1035): read the
 * question of a query, write an answer with A records or an error code. No compression on
 * input (stub resolvers send one uncompressed question), one pointer to it on output.
 */

/** The question of a query. */
export interface DnsQuestion {
  id: number;
  /** Recursion-desired bit of the query, echoed in the answer. */
  recursionDesired: boolean;
  /** Lower-cased name without the trailing dot. */
  name: string;
  type: number;
  /** The question section exactly as received, copied into the answer. */
  raw: Buffer;
}

/** Record type A. */
export const TYPE_A = 1;
/** Response codes used by the server. */
export const RCODE = { noError: 0, formErr: 1, serverFail: 2, nxDomain: 3, notImp: 4 } as const;

/** Reads the first question of a query; undefined when the message is not a well-formed query. */
export function parseQuery(msg: Buffer): DnsQuestion | undefined {
  if (msg.length < 12 || (msg.readUInt8(2) & 0x80) !== 0 || msg.readUInt16BE(4) < 1) {
    return undefined;
  }
  const labels: string[] = [];
  let offset = 12;
  while (offset < msg.length) {
    const len = msg.readUInt8(offset);
    if (len === 0) break;
    if (len > 63 || offset + 1 + len > msg.length) return undefined;
    labels.push(msg.toString('latin1', offset + 1, offset + 1 + len).toLowerCase());
    offset += 1 + len;
  }
  if (offset + 5 > msg.length) return undefined;
  const end = offset + 5;
  return {
    id: msg.readUInt16BE(0),
    recursionDesired: (msg.readUInt8(2) & 0x01) !== 0,
    name: labels.join('.'),
    type: msg.readUInt16BE(offset + 1),
    raw: msg.subarray(12, end),
  };
}

/** Builds the answer to `q`: A records for `addresses` (IPv4 dotted quads), or `rcode`. */
export function buildAnswer(
  q: DnsQuestion,
  rcode: number,
  addresses: readonly string[],
  ttlSeconds: number,
): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(q.id, 0);
  // QR=1, opcode 0, AA=1, RD echoed, RA=0.
  header.writeUInt8(0x84 | (q.recursionDesired ? 0x01 : 0), 2);
  header.writeUInt8(rcode & 0x0f, 3);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(addresses.length, 6);
  const answers = addresses.map((ip) => {
    const rr = Buffer.alloc(16);
    rr.writeUInt16BE(0xc00c, 0); // pointer to the question's name at offset 12
    rr.writeUInt16BE(TYPE_A, 2);
    rr.writeUInt16BE(1, 4); // class IN
    rr.writeUInt32BE(ttlSeconds, 6);
    rr.writeUInt16BE(4, 10);
    ip.split('.').forEach((octet, i) => rr.writeUInt8(Number(octet) & 0xff, 12 + i));
    return rr;
  });
  return Buffer.concat([header, q.raw, ...answers]);
}
