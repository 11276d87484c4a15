/** The shape of one cdnctl subcommand. */
import type { CdnClient } from '../../cdn/client.js';
import type { CommandResult } from '../output.js';

/** Options shared by all commands (each command reads the ones it needs). */
export interface Flags {
  file?: string;
  search?: string;
  /** `dns records --type`: a record type name or number. */
  type?: string;
  page?: string;
  perPage?: string;
  all?: boolean;
  showKeys?: boolean;
  certFile?: string;
  keyFile?: string;
  /** `-o` of a command that owns its output (export: a directory or `-`). */
  output?: string;
  namespace?: string;
  kinds?: string;
  deletionPolicy?: string;
  accountRef?: string;
  credentialsRef?: string;
  secretEnvPattern?: string;
  customCertificates?: string;
  /** purge pullzone: only the objects with this cache tag. */
  cacheTag?: string;
  /** purge url: return before the purge completes. */
  async?: boolean;
  /** purge url: no wildcard suffix match. */
  exactPath?: boolean;
  /** shield review: print the kubectl patch of this ShieldPolicy instead of reviewing. */
  printPatch?: string;
  /** migrate: move live objects instead of manifest files. */
  live?: boolean;
  /** migrate: report what would change, change nothing. */
  dryRun?: boolean;
  /** migrate --live: every namespace (and the cluster-scoped kinds). */
  allNamespaces?: boolean;
  /** migrate --live: the kubeconfig (default KUBECONFIG, ~/.kube/config). */
  kubeconfig?: string;
  /** migrate --live: how long each new object may take to become Ready. */
  readyTimeoutSeconds?: string;
}

export interface CommandContext {
  /** The CDN API client (a `local` command must not read it: it throws there). */
  client: CdnClient;
  /** Positional arguments after `<group> <verb>`, already checked for count. */
  args: string[];
  flags: Flags;
}

export interface Command {
  group: string;
  verb: string;
  /** Positional argument names; a name in brackets is optional. */
  args: string[];
  summary: string;
  /** The command writes its own output (`text`); `-o` is passed to it instead of a format. */
  ownsOutput?: boolean;
  /** The command never calls the CDN API: no client is made, no API key is needed. */
  local?: boolean;
  run(ctx: CommandContext): Promise<CommandResult>;
}

/** Result of an operation that returns no body. */
export function done(message: string, value: Record<string, unknown> = {}): CommandResult {
  return { value: { ok: true, ...value }, message };
}
