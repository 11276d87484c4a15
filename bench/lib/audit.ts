/**
 * Counting Kubernetes API calls from the kube-apiserver audit log. The bench starts its
 * private control plane with {@link auditPolicy}: every write verb (all users) and every
 * list/watch of the operator's user at Metadata level, one line per finished request
 * (RequestReceived omitted; a watch logs ResponseStarted and ResponseComplete, only the
 * first is kept). {@link AuditLog} tails the file incrementally.
 */
import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The verbs that change state in the apiserver. */
export const WRITE_VERBS = ['create', 'update', 'patch', 'delete', 'deletecollection'] as const;

/** Audit log size (MB) at which the apiserver would rotate: 1 TB, never in a bench run. */
export const NEVER_ROTATE_MB = 1_000_000;

/** One audited request, reduced to what the bench counts. */
export interface AuditEntry {
  /** requestReceivedTimestamp, ms since epoch. */
  t: number;
  verb: string;
  user: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  code: number;
  uri: string;
}

/** Filter for {@link AuditLog.count}. */
export interface AuditFilter {
  from?: number;
  to?: number;
  user?: string;
  verbs?: readonly string[];
  resource?: string;
  subresource?: string;
  namespace?: string;
  /** Only requests answered < 400 (default: all attempts). */
  successOnly?: boolean;
}

/**
 * Writes the audit policy into `dir` and returns the apiserver flags that enable it.
 * `operatorUsers` get their list/watch requests logged as well (relist counting).
 */
export async function auditPolicy(
  dir: string,
  operatorUsers: string[],
): Promise<{ args: string[]; logPath: string }> {
  const policyPath = join(dir, 'audit-policy.yaml');
  const logPath = join(dir, 'audit.log');
  const users = operatorUsers.map((u) => JSON.stringify(u)).join(', ');
  const policy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: Metadata
    verbs: [${WRITE_VERBS.join(', ')}]
  - level: Metadata
    users: [${users}]
    verbs: [list, watch]
  - level: None
`;
  await writeFile(policyPath, policy);
  return {
    logPath,
    args: [
      `--audit-policy-file=${policyPath}`,
      `--audit-log-path=${logPath}`,
      '--audit-log-format=json',
      '--audit-log-mode=blocking',
      // 0 does not mean "never rotate": the apiserver's log writer (lumberjack) then rotates
      // at its default of 100 MB, which a full matrix passes after its first N = 10,000 cell.
      // A reader past the rotation would count nothing and report 0 writes per create.
      `--audit-log-maxsize=${NEVER_ROTATE_MB}`,
      '--audit-log-maxbackup=0',
    ],
  };
}

interface RawEvent {
  stage?: string;
  verb?: string;
  requestURI?: string;
  user?: { username?: string };
  objectRef?: { resource?: string; subresource?: string; namespace?: string; name?: string };
  responseStatus?: { code?: number };
  requestReceivedTimestamp?: string;
}

function keep(e: RawEvent): boolean {
  // A watch is logged when the stream starts; ResponseComplete would count it twice.
  return e.verb === 'watch' ? e.stage === 'ResponseStarted' : e.stage === 'ResponseComplete';
}

function toEntry(line: string): AuditEntry | undefined {
  let e: RawEvent;
  try {
    e = JSON.parse(line) as RawEvent;
  } catch {
    return undefined;
  }
  if (!keep(e)) return undefined;
  const ref = e.objectRef ?? {};
  return {
    t: Date.parse(e.requestReceivedTimestamp ?? ''),
    verb: e.verb ?? '',
    user: e.user?.username ?? '',
    resource: ref.resource ?? '',
    subresource: ref.subresource ?? '',
    namespace: ref.namespace ?? '',
    name: ref.name ?? '',
    code: e.responseStatus?.code ?? 0,
    uri: e.requestURI ?? '',
  };
}

function inWindow(e: AuditEntry, f: AuditFilter): boolean {
  return (f.from === undefined || e.t >= f.from) && (f.to === undefined || e.t <= f.to);
}

function same(value: string, wanted: string | undefined): boolean {
  return wanted === undefined || value === wanted;
}

function matches(e: AuditEntry, f: AuditFilter): boolean {
  if (!inWindow(e, f) || (f.verbs && !f.verbs.includes(e.verb))) return false;
  if (!same(e.user, f.user) || !same(e.resource, f.resource)) return false;
  if (!same(e.subresource, f.subresource) || !same(e.namespace, f.namespace)) return false;
  return !(f.successOnly && (e.code === 0 || e.code >= 400));
}

/** Incremental reader of one audit log file. */
export class AuditLog {
  private offset = 0;
  private rest = '';
  private inode: number | undefined;
  readonly entries: AuditEntry[] = [];

  constructor(readonly path: string) {}

  /** Reads what was appended since the last call. */
  async refresh(): Promise<void> {
    let fh;
    try {
      fh = await open(this.path, 'r');
    } catch {
      return; // not written yet
    }
    try {
      const { size, ino } = await fh.stat();
      this.checkNotRotated(ino, size);
      if (size <= this.offset) return;
      const buf = Buffer.alloc(size - this.offset);
      await fh.read(buf, 0, buf.length, this.offset);
      this.offset = size;
      const text = this.rest + buf.toString('utf8');
      const lines = text.split('\n');
      this.rest = lines.pop() ?? '';
      for (const line of lines) {
        const entry = toEntry(line);
        if (entry) this.entries.push(entry);
      }
    } finally {
      await fh.close();
    }
  }

  /**
   * A rotated file would silently count nothing from here on (the new file is shorter than
   * the offset, or another file): every figure after it would be wrong, so the run stops.
   */
  private checkNotRotated(ino: number, size: number): void {
    if ((this.inode !== undefined && ino !== this.inode) || size < this.offset)
      throw new Error(
        `cannot read the audit log ${this.path}: it was rotated or truncated at offset ${this.offset}`,
      );
    this.inode = ino;
  }

  /** Entries matching `f`. */
  select(f: AuditFilter): AuditEntry[] {
    return this.entries.filter((e) => matches(e, f));
  }

  /** Number of entries matching `f`. */
  count(f: AuditFilter): number {
    return this.select(f).length;
  }

  /** Matching entries counted by `verb resource[/subresource]`. */
  breakdown(f: AuditFilter): Record<string, number> {
    const out: Record<string, number> = {};
    for (const e of this.select(f)) {
      const key = `${e.verb} ${e.resource}${e.subresource ? `/${e.subresource}` : ''}`;
      out[key] = (out[key] ?? 0) + 1;
    }
    return out;
  }
}
