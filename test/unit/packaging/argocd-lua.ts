/**
 * Runs the Argo CD health check the way Argo CD does: hack/lua's argocd-lua (gopher-lua, the
 * engine Argo CD embeds, with Argo CD's library set), built and cached by
 * hack/build-binaries.sh. One process evaluates a whole batch of objects.
 */
import { HEALTH_LUA, resolveBuiltTool, run } from './tools.js';

/** Health of one object, or the script's error. */
export interface LuaHealth {
  status?: string;
  message?: string;
  error?: string;
}

/** Evaluates the health script for each object with gopher-lua; results in input order. */
export async function evaluateWithGopherLua(
  objects: unknown[],
  script = HEALTH_LUA,
): Promise<LuaHealth[]> {
  const r = await run(await resolveBuiltTool('argocd-lua'), [script], {
    input: JSON.stringify(objects),
  });
  if (r.code !== 0) throw new Error(`cannot run argocd-lua (${r.code}): ${r.stderr}`);
  const out = JSON.parse(r.stdout) as LuaHealth[];
  if (out.length !== objects.length)
    throw new Error(`argocd-lua returned ${out.length} results for ${objects.length} objects`);
  return out;
}
