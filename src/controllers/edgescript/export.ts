/**
 * `cdnctl export` of edge scripts: every standalone and middleware script of the account (DNS
 * scripts are never this kind's), in ascending id order, each read the way the operator reads
 * it (the script, its code, its live release and releases, and the names of its secrets:
 * `readState`), then written by export-script.ts (a ConfigMap with the code, an EdgeScript adopting
 * the script by id). Reads only.
 */
import { NameAllocator } from '../shared/export-names.js';
import type { ExportContext } from '../shared/manifest-export.js';
import { exportEdgeScript } from './export-script.js';
import { SCRIPT_TYPES } from './fields.js';
import { readState } from './index.js';
import type { KindPart } from '../kit/kind-parts.js';

/** See the module comment. */
export async function exportEdgeScripts(c: ExportContext): Promise<void> {
  const types = [...SCRIPT_TYPES.numbers] as (1 | 2)[];
  const listed = (await c.client.listEdgeScripts({ type: types })).filter(
    (s) => s.Deleted !== true && types.includes(s.ScriptType as 1 | 2),
  );
  const names = new NameAllocator();
  const signal = new AbortController().signal;
  let withSecrets = 0;
  for (const script of listed.sort((a, b) => Number(a.Id) - Number(b.Id))) {
    const id = Number(script.Id);
    const state = await readState(c.client, id, signal, true);
    const secrets = state.secrets ?? [];
    const name = names.allocate(String(state.Name ?? ''), id, 'script');
    const out = exportEdgeScript({ state, secrets, name }, c.opts, {
      configMaps: c.configMapNames,
      secrets: c.secretNames,
    });
    c.result.objects.push(...out.objects);
    c.result.secrets.push(...out.secrets);
    c.result.notes.push(...out.notes);
    if (out.secrets.length > 0) withSecrets++;
  }
  if (withSecrets > 0) {
    c.result.notes.push(
      `EdgeScript: secret values are never exported (the platform does not return them); create each script's <name>-secrets Secret with the current values before applying (${withSecrets} script(s))`,
    );
  }
}

/** The kind's `cdnctl export` exporter, under its part's name (kit/kind-parts.ts). */
export const exporter: KindPart<'exporter'> = exportEdgeScripts;
