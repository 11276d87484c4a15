/**
 * `cdnctl migrate`: from the legacy group `cdn.operator.io/v1alpha1` to the families' groups
 * (docs/migration.md). Manifest files and folders by default; live objects with `--live`.
 * Neither needs the CDN API: the client is never created (no API key read).
 */
import type { LiveOptions } from '../migrate/live/migrate-live.js';
import { UsageError } from '../usage-error.js';
import type { Command, Flags } from './types.js';

const DEFAULT_READY_TIMEOUT_S = 300;

function readyTimeoutMs(flags: Flags): number {
  const value = flags.readyTimeoutSeconds ?? String(DEFAULT_READY_TIMEOUT_S);
  const seconds = Number(value);
  if (!(seconds > 0)) {
    throw new UsageError(
      `--ready-timeout-seconds must be a positive number, got ${JSON.stringify(value)}`,
    );
  }
  return seconds * 1000;
}

/** The options of `--live` from the flags; a UsageError for bad ones. */
async function liveOptionsOf(args: string[], flags: Flags, current: string): Promise<LiveOptions> {
  if (args.length > 0) throw new UsageError('migrate --live takes no PATH (it moves live objects)');
  if (flags.allNamespaces && flags.namespace) {
    throw new UsageError('--namespace and --all-namespaces exclude each other');
  }
  const { findKind } = await import('../../controllers/kinds.js');
  const kinds = flags.kinds?.split(',').map((k) => k.trim());
  const unknown = kinds?.find((k) => !findKind(k));
  if (unknown !== undefined) {
    throw new UsageError(`--kinds: ${JSON.stringify(unknown)} is not a kind of the operator`);
  }
  return {
    ...(flags.allNamespaces ? {} : { namespace: flags.namespace ?? current }),
    allNamespaces: flags.allNamespaces === true,
    ...(kinds ? { kinds } : {}),
    dryRun: flags.dryRun === true,
    readyTimeoutMs: readyTimeoutMs(flags),
  };
}

async function runLive(args: string[], flags: Flags): Promise<{ text: string; exitCode: number }> {
  const { KubeClient, loadKubeConfig } = await import('../../runtime/kube-client.js');
  const { migrateLive } = await import('../migrate/live/migrate-live.js');
  const kc = loadKubeConfig(flags.kubeconfig);
  const current = kc.getContextObject(kc.getCurrentContext())?.namespace ?? 'default';
  const opts = await liveOptionsOf(args, flags, current);
  const kube = await KubeClient.create(kc);
  try {
    const report = await migrateLive(kube, opts);
    return { text: `${report.lines.join('\n')}\n`, exitCode: report.exitCode };
  } finally {
    kube.close();
  }
}

export const migrateCommands: Command[] = [
  {
    group: 'migrate',
    verb: '',
    args: ['[PATH...]'],
    summary:
      'Move manifests (files, folders: in place) or, with --live, live objects from cdn.operator.io/v1alpha1 to the new API groups',
    ownsOutput: true,
    local: true,
    run: async ({ args, flags }) => {
      if (flags.live) {
        const { text, exitCode } = await runLive(args, flags);
        return { value: null, text, exitCode };
      }
      if (args.length === 0)
        throw new UsageError('migrate needs PATH... (files or folders), or --live');
      const { migrateFiles, renderFilesReport } = await import('../migrate/migrate-files.js');
      const report = migrateFiles(args, flags.dryRun === true);
      const { text, notes } = renderFilesReport(report, flags.dryRun === true);
      return { value: null, text, notes, exitCode: report.exitCode };
    },
  },
];
