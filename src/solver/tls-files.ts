/**
 * The solver's serving certificate, read from a directory as a mounted `kubernetes.io/tls`
 * Secret lays it out (`tls.crt`, `tls.key`). The kubelet swaps the files in place when
 * cert-manager renews the certificate, so the solver reads them again now and then.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A PEM certificate chain and its key. */
export interface TlsPair {
  cert: string;
  key: string;
}

async function readPem(dir: string, file: string): Promise<string> {
  const path = join(dir, file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? String(err);
    throw new Error(`cannot read the DNS-01 solver's serving certificate: ${path}: ${code}`, {
      cause: err,
    });
  }
  if (!text.includes('-----BEGIN '))
    throw new Error(`cannot read the DNS-01 solver's serving certificate: ${path} holds no PEM`);
  return text;
}

/** Reads `tls.crt` and `tls.key` of `dir`; rejects naming the file (never its content). */
export async function readTlsPair(dir: string): Promise<TlsPair> {
  const [cert, key] = await Promise.all([readPem(dir, 'tls.crt'), readPem(dir, 'tls.key')]);
  return { cert, key };
}

/** True when the two pairs differ. */
export function tlsPairChanged(a: TlsPair, b: TlsPair): boolean {
  return a.cert !== b.cert || a.key !== b.key;
}
