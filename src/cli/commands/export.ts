/**
 * `cdnctl export` and `cdnctl diff`: bringing an existing account under GitOps (docs/export.md).
 * Their modules (the operator's kinds) load only when one of them runs, so every other command
 * starts as fast as before.
 */
import type { Command } from './types.js';

export const exportCommands: Command[] = [
  {
    group: 'export',
    verb: '',
    args: [],
    summary:
      'Write manifests that adopt every resource of the account (--namespace, --kinds, -o DIR|-)',
    ownsOutput: true,
    run: async ({ client, flags }) => {
      const { parseExportOptions } = await import('../export/options.js');
      const { exportAccount } = await import('../export/export-account.js');
      const { renderSecretsList, renderStream, writeDirectory } =
        await import('../export/render.js');
      const opts = parseExportOptions(flags);
      const result = await exportAccount(client, opts);
      const secrets = renderSecretsList(result, opts.namespace);
      const dest = flags.output ?? '-';
      if (dest === '-') return { value: null, text: renderStream(result), notes: secrets };
      const files = writeDirectory(result, dest, opts.namespace);
      return {
        value: null,
        text: `Wrote ${files.length} manifest(s) to ${dest}\n\n${secrets}`,
      };
    },
  },
  {
    group: 'diff',
    verb: '',
    args: [],
    summary: 'Show what applying the manifests in -f FILE|DIR would change (exit 1 if anything)',
    ownsOutput: true,
    run: async ({ client, flags }) => {
      const { readManifests } = await import('../diff/manifests.js');
      const { diffManifests, renderDiffReport } = await import('../diff/diff-manifests.js');
      const report = await diffManifests(client, readManifests(flags.file));
      return { value: null, text: renderDiffReport(report), exitCode: report.exitCode };
    },
  },
];
