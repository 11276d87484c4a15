/**
 * Output of `cdnctl export`: the manifests as one YAML stream (stdout) or one file per object
 * in a directory, and the list of Secrets the user must create (names, keys and a kubectl
 * command with placeholders; never a value).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { toYaml11, toYamlStream } from './yaml.js';
import type { ExportResult, RequiredSecret } from '../../controllers/shared/manifest-export.js';

/** Name of the Secrets list written next to the manifests. */
export const SECRETS_FILE = 'secrets-to-create.txt';

function createCommand(s: RequiredSecret, namespace: string): string {
  if (s.type === 'kubernetes.io/tls') {
    return `kubectl -n ${namespace} create secret tls ${s.name} --cert=<certificate.pem> --key=<key.pem>`;
  }
  const literals = s.keys.map((k) => `--from-literal=${k}=<value>`).join(' ');
  return `kubectl -n ${namespace} create secret generic ${s.name} ${literals}`;
}

/** The Secrets list as text (see the module comment). */
export function renderSecretsList(result: ExportResult, namespace: string): string {
  const user = result.secrets.filter((s) => s.filledBy === 'user');
  const operator = result.secrets.filter((s) => s.filledBy === 'operator');
  const lines: string[] = [];
  if (user.length === 0) lines.push('No Secrets to create: the export holds no secret values.');
  else {
    lines.push(
      `Create these ${user.length} Secret(s) in namespace ${namespace} before applying (secret values are never exported; use the values the platform has):`,
    );
    for (const s of user) {
      lines.push('', `- ${s.name} (${s.type}; keys: ${s.keys.join(', ')})`, `  for ${s.purpose}`);
      lines.push(`  ${createCommand(s, namespace)}`);
    }
  }
  if (operator.length > 0) {
    lines.push('', 'Written by the operator (nothing to create):');
    for (const s of operator) lines.push(`- ${s.name}: ${s.purpose}`);
  }
  if (result.notes.length > 0) {
    lines.push('', 'Notes:');
    for (const n of result.notes) lines.push(`- ${n}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Every object as one YAML stream. */
export function renderStream(result: ExportResult): string {
  return toYamlStream(result.objects.map((o) => o.manifest));
}

/**
 * Writes `<dir>/<kind>-<name>.yaml` per object and the Secrets list; returns the file names.
 * kubectl apply -f <dir> reads only the .yaml files.
 */
export function writeDirectory(result: ExportResult, dir: string, namespace: string): string[] {
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (const o of result.objects) {
    const file = `${o.kind.toLowerCase()}-${o.name}.yaml`;
    writeFileSync(join(dir, file), toYaml11(o.manifest));
    files.push(file);
  }
  writeFileSync(join(dir, SECRETS_FILE), renderSecretsList(result, namespace));
  return files;
}
