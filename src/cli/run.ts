/**
 * cdnctl: argument parsing, dispatch, output and exit codes. Exit codes: 0 success, 1 API
 * error, 2 usage error, 3 unauthorized (401/403), 4 not found.
 */
import { parseArgs } from 'node:util';
import { CdnClient } from '../cdn/client.js';
import { isCdnApiError, type CdnApiError } from '../cdn/errors.js';
import { VERSION } from '../version.js';
import { accountCommands } from './commands/account.js';
import { appCommands } from './commands/apps.js';
import { exportCommands } from './commands/export.js';
import { migrateCommands } from './commands/migrate.js';
import type { KindModule } from '../controllers/kind-module.js';
import { KINDS } from '../controllers/kinds.js';
import { exportableKinds } from './export/export-account.js';
import { pullZoneCommands } from './commands/pullzone.js';
import { purgeCommands } from './commands/purge.js';
import { NoShieldZone, shieldCommands } from './commands/shield.js';
import { shieldReviewCommands } from './commands/shield-review.js';
import { dnsCommands } from './commands/dns.js';
import type { Command, Flags } from './commands/types.js';
import { readApiKey } from './input.js';
import { render, type OutputFormat } from './output.js';
import { UsageError } from './usage-error.js';

export const EXIT = { ok: 0, apiError: 1, usage: 2, unauthorized: 3, notFound: 4 } as const;

export const COMMANDS: Command[] = [
  ...pullZoneCommands,
  ...purgeCommands,
  ...accountCommands,
  ...appCommands,
  ...shieldCommands,
  ...shieldReviewCommands,
  ...dnsCommands,
  ...exportCommands,
  ...migrateCommands,
];

/** Where cdnctl writes and what environment it reads (replaced in tests). */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
}

const OPTIONS = {
  output: { type: 'string', short: 'o' },
  'api-key-file': { type: 'string' },
  'api-url': { type: 'string' },
  file: { type: 'string', short: 'f' },
  search: { type: 'string' },
  type: { type: 'string' },
  page: { type: 'string' },
  'per-page': { type: 'string' },
  'show-keys': { type: 'boolean' },
  'cert-file': { type: 'string' },
  'key-file': { type: 'string' },
  'timeout-seconds': { type: 'string' },
  namespace: { type: 'string', short: 'n' },
  kinds: { type: 'string' },
  'deletion-policy': { type: 'string' },
  'account-ref': { type: 'string' },
  'credentials-ref': { type: 'string' },
  'secret-env-pattern': { type: 'string' },
  'custom-certificates': { type: 'string' },
  'cache-tag': { type: 'string' },
  async: { type: 'boolean' },
  'exact-path': { type: 'boolean' },
  'print-patch': { type: 'string' },
  live: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  'all-namespaces': { type: 'boolean', short: 'A' },
  kubeconfig: { type: 'string' },
  'ready-timeout-seconds': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

type Values = ReturnType<typeof parse>['values'];

function parse(argv: string[]): {
  values: {
    [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]['type'] extends 'boolean' ? boolean : string;
  };
  positionals: string[];
} {
  try {
    return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/**
 * The help text, generated from the command table (every command, or the ones given) and the
 * list of kinds.
 */
export function helpText(
  commands: readonly Command[] = COMMANDS,
  kinds: readonly KindModule[] = KINDS,
): string {
  const lines = commands.map((c) => {
    const usage = ['cdnctl', c.group, c.verb, ...c.args].filter((w) => w !== '').join(' ');
    return `  ${usage.padEnd(58)} ${c.summary}`;
  });
  return [
    'cdnctl: command-line client of the CDN management API',
    '',
    'Commands:',
    ...lines,
    '',
    'Options:',
    '  -o, --output table|json|yaml   output format (default table)',
    '  -f, --file FILE                request body, YAML or JSON (- for stdin)',
    '  --api-key-file FILE            read the API key from FILE (default: $CDN_API_KEY)',
    '  --api-url URL                  API base URL (default: $CDN_API_URL or https://api.bunny.net)',
    '  --timeout-seconds N            per-request timeout (default 30)',
    '  --show-keys                    apikeys list: print keys unmasked',
    '  --type T                       dns records: only records of type T (A, CNAME, ... or 0..15)',
    '  --cache-tag TAG                purge pullzone: purge only the objects with this cache tag',
    '  --async, --exact-path          purge url: return before the purge ends; no prefix match',
    '  -o DIR|-                       export: write one file per object to DIR (default - : stdout)',
    '  --print-patch POLICY           shield review: print the kubectl patch of that ShieldPolicy instead',
    '  -n, --namespace NS             export: namespace of the manifests (default default); shield review --print-patch: of the policy',
    `  --kinds K1,K2                  export: ${exportableKinds(kinds)
      .map((k) => k.kind)
      .join(',')} (default all)`,
    '  --deletion-policy P            export: Orphan (default) or Delete (ShieldPolicy: Reset)',
    '  --account-ref NAME             export: objects use this CdnAccount',
    '  --credentials-ref SECRET[:KEY] export: objects use this Secret key (default key apiKey)',
    '  --secret-env-pattern REGEX     export: container variables whose name matches go to a Secret',
    '  --custom-certificates omit|secret  export: leave custom certificates unmanaged (default) or use TLS Secrets',
    '  --dry-run                      migrate: print what would change, change nothing',
    '  --live                         migrate: move the live objects of the cluster (docs/migration.md)',
    "  -A, --all-namespaces           migrate --live: every namespace and the cluster-scoped kinds (default: -n or the context's)",
    '  --kinds K1,K2                  migrate --live: only these kinds',
    '  --kubeconfig FILE              migrate --live: the cluster (default $KUBECONFIG, ~/.kube/config)',
    '  --ready-timeout-seconds N      migrate --live: how long a new object may take to become Ready (default 300)',
    '',
    'Exit codes: 0 ok, 1 API error, 2 usage error, 3 unauthorized, 4 not found.',
    'diff: 0 no changes, 1 changes, 2 error.',
    '',
  ].join('\n');
}

/**
 * A command without verb (`cdnctl export`), which takes no positional arguments, or any number
 * when its one argument is a list (`[PATH...]`).
 */
function findSingleCommand(
  positionals: string[],
): { command: Command; args: string[] } | undefined {
  const command = COMMANDS.find((c) => c.group === positionals[0] && c.verb === '');
  if (!command) return undefined;
  if (command.args[0]?.endsWith('...]')) return { command, args: positionals.slice(1) };
  if (positionals.length > 1) {
    throw new UsageError(
      `usage: cdnctl ${command.group} takes no arguments, got ${positionals[1]}`,
    );
  }
  return { command, args: [] };
}

/** The command `group verb`; a UsageError naming the group's verbs when there is none. */
function namedCommand(group: string, verb: string | undefined): Command {
  const command = COMMANDS.find((c) => c.group === group && c.verb === verb);
  if (command) return command;
  const verbs = COMMANDS.filter((c) => c.group === group).map((c) => c.verb);
  if (verbs.length === 0) throw new UsageError(`unknown command ${JSON.stringify(group)}`);
  throw new UsageError(
    `unknown ${group} command ${JSON.stringify(verb ?? '')}; one of: ${verbs.join(', ')}`,
  );
}

/**
 * The commands `--help` describes: all of them, a group's, or the one named. Arguments after
 * the command are not checked (`cdnctl pullzone get --help` needs no ID), but an unknown
 * command or group is a UsageError whatever the flags.
 */
function commandsForHelp(positionals: string[]): readonly Command[] {
  const [group, verb] = positionals;
  if (group === undefined) return COMMANDS;
  const inGroup = COMMANDS.filter((c) => c.group === group);
  const single = inGroup.find((c) => c.verb === '');
  if (single) return [single];
  if (verb === undefined && inGroup.length > 0) return inGroup;
  return [namedCommand(group, verb)];
}

function findCommand(positionals: string[]): { command: Command; args: string[] } {
  const [group, verb, ...args] = positionals;
  if (!group) throw new UsageError('missing command');
  const single = findSingleCommand(positionals);
  if (single) return single;
  const command = namedCommand(group, verb);
  const required = command.args.filter((a) => !a.startsWith('[')).length;
  if (args.length < required || args.length > command.args.length) {
    throw new UsageError(`usage: cdnctl ${group} ${verb} ${command.args.join(' ')}`.trimEnd());
  }
  return { command, args };
}

function outputFormat(value: string | undefined): OutputFormat {
  const format = value ?? 'table';
  if (format === 'table' || format === 'json' || format === 'yaml') return format;
  throw new UsageError(`-o must be table, json or yaml, got ${JSON.stringify(format)}`);
}

function flagsOf(values: Values): Flags {
  return {
    file: values.file,
    search: values.search,
    type: values.type,
    page: values.page,
    perPage: values['per-page'],
    showKeys: values['show-keys'],
    certFile: values['cert-file'],
    keyFile: values['key-file'],
    namespace: values.namespace,
    kinds: values.kinds,
    deletionPolicy: values['deletion-policy'],
    accountRef: values['account-ref'],
    credentialsRef: values['credentials-ref'],
    secretEnvPattern: values['secret-env-pattern'],
    customCertificates: values['custom-certificates'],
    cacheTag: values['cache-tag'],
    async: values.async,
    exactPath: values['exact-path'],
    printPatch: values['print-patch'],
    live: values.live,
    dryRun: values['dry-run'],
    allNamespaces: values['all-namespaces'],
    kubeconfig: values.kubeconfig,
    readyTimeoutSeconds: values['ready-timeout-seconds'],
  };
}

function createClient(values: Values, env: NodeJS.ProcessEnv): CdnClient {
  const timeout = values['timeout-seconds'];
  if (timeout !== undefined && !(Number(timeout) > 0)) {
    throw new UsageError(
      `--timeout-seconds must be a positive number, got ${JSON.stringify(timeout)}`,
    );
  }
  const baseUrl = values['api-url'] ?? env.CDN_API_URL;
  return new CdnClient({
    credentials: readApiKey(values['api-key-file'], env),
    ...(baseUrl ? { baseUrl } : {}),
    ...(timeout ? { timeoutMs: Number(timeout) * 1000 } : {}),
    userAgent: `cdnctl/${VERSION} (node/${process.versions.node})`,
  });
}

/**
 * Runs a found command and prints its result. A command that owns its output receives `-o`
 * as a flag (export: a directory) and prints its own text; the others render in the `-o` format.
 */
async function runCommand(
  command: Command,
  call: { client: CdnClient; args: string[]; values: Values },
  io: CliIo,
): Promise<number> {
  const { client, args, values } = call;
  const format = command.ownsOutput ? 'table' : outputFormat(values.output);
  const flags = { ...flagsOf(values), ...(command.ownsOutput ? { output: values.output } : {}) };
  const result = await command.run({ client, args, flags });
  io.stdout(result.text ?? render(result, format));
  if (result.notes) io.stderr(result.notes);
  return result.exitCode ?? EXIT.ok;
}

/** The client a `local` command gets: any use of it is a programming error. */
function localClient(): CdnClient {
  return new Proxy({} as CdnClient, {
    get: (_, prop) => {
      if (prop === 'close') return () => undefined;
      throw new Error(`cannot use the CDN client in a local command (${String(prop)})`);
    },
  });
}

/** Runs one cdnctl invocation and returns its exit code. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  let client: CdnClient | undefined;
  try {
    const { values, positionals } = parse(argv);
    if (values.version || values.help) {
      const commands = commandsForHelp(positionals);
      io.stdout(values.version ? `cdnctl ${VERSION}\n` : helpText(commands));
      return EXIT.ok;
    }
    if (positionals.length === 0) {
      io.stdout(helpText());
      return EXIT.usage;
    }
    const { command, args } = findCommand(positionals);
    client = command.local ? localClient() : createClient(values, io.env);
    return await runCommand(command, { client, args, values }, io);
  } catch (e) {
    return reportError(e, io);
  } finally {
    client?.close();
  }
}

function reportError(e: unknown, io: CliIo): number {
  if (e instanceof UsageError) {
    io.stderr(`error: ${e.message}\nRun 'cdnctl --help' for usage.\n`);
    return EXIT.usage;
  }
  if (e instanceof NoShieldZone) {
    io.stderr(`error: getShieldZoneByPullZone: ${e.message}\n`);
    return EXIT.notFound;
  }
  if (isCdnApiError(e)) return reportApiError(e, io);
  io.stderr(`error: ${e instanceof Error ? e.message : String(e)}\n`);
  return EXIT.apiError;
}

function reportApiError(e: CdnApiError, io: CliIo): number {
  const status = e.status === undefined ? '' : ` [HTTP ${e.status}]`;
  const field = e.field ? ` (field: ${e.field})` : '';
  io.stderr(`error: ${e.operation}: ${e.detail}${field}${status}\n`);
  for (const f of e.fields?.slice(1) ?? []) io.stderr(`  field ${f.field}: ${f.message}\n`);
  if (e.kind === 'unauthorized') return EXIT.unauthorized;
  if (e.kind === 'notFound') return EXIT.notFound;
  if (e.kind === 'invalid' && e.status === undefined) return EXIT.usage;
  return EXIT.apiError;
}
