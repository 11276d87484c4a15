/**
 * Runs the Argo CD health check the way Argo CD does: hack/lua's argocd-lua (gopher-lua, the
 * engine Argo CD embeds, with Argo CD's library set), built and cached by
 * hack/build-binaries.sh. One process evaluates a whole batch of objects.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { HEALTH_LUA, ROOT, run } from './tools.js';

const execFileAsync = promisify(execFile);

/** Health of one object, or the script's error. */
export interface LuaHealth {
  status?: string;
  message?: string;
  error?: string;
}

let binary: Promise<string> | undefined;

/** Path of the cached argocd-lua binary (built on first use). */
export function resolveArgocdLua(): Promise<string> {
  binary ??= execFileAsync(join(ROOT, 'hack/build-binaries.sh'), ['argocd-lua'], {
    env: { ...process.env, GOWORK: 'off' },
    maxBuffer: 16 * 1024 * 1024,
  }).then(({ stdout }) => {
    const line = stdout.split('\n').find((l) => l.startsWith('argocd-lua='));
    if (!line) throw new Error(`cannot locate argocd-lua in build output: ${stdout}`);
    return line.slice('argocd-lua='.length);
  });
  return binary;
}

/** Evaluates the health script for each object with gopher-lua; results in input order. */
export async function evaluateWithGopherLua(
  objects: unknown[],
  script = HEALTH_LUA,
): Promise<LuaHealth[]> {
  const r = await run(await resolveArgocdLua(), [script], { input: JSON.stringify(objects) });
  if (r.code !== 0) throw new Error(`cannot run argocd-lua (${r.code}): ${r.stderr}`);
  const out = JSON.parse(r.stdout) as LuaHealth[];
  if (out.length !== objects.length)
    throw new Error(`argocd-lua returned ${out.length} results for ${objects.length} objects`);
  return out;
}
