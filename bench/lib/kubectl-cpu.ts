/**
 * `kubectl` with the CPU seconds it used. `kubectl apply -f` is sequential and does real work
 * per object on the client: before each create or patch it parses the OpenAPI v3 document of
 * the object's group-version (every kind of the group, paths and schemas) once to learn whether
 * the server takes `fieldValidation`, and once more per patch to learn whether the kind takes
 * strategic merge patches (k8s.io/cli-runtime queryParamVerifierV3.HasSupport and
 * k8s.io/kubectl apply Patcher.gvkSupportsPatchOpenAPIV3, both via openapi3.Root.GVSpec, which
 * caches the bytes, not the parse). That time grows with the size of the group's document and
 * is part of what a user waits for, so the admission bench reports it beside the apiserver's.
 *
 * The CPU time comes from the shell's `times` builtin after kubectl exits (the user and system
 * time of its waited-for children), so nothing beyond bash is needed.
 */
import { execFile } from 'node:child_process';

/** What one kubectl run printed, its exit code and the CPU seconds it used. */
export interface TimedKubectl {
  code: number;
  stdout: string;
  stderr: string;
  cpuSeconds: number;
}

const MARK = '--- cdn-bench-times ---';

/** Seconds of one `times` field (`1m2.345s`). */
function secondsOf(field: string): number {
  const m = /^(\d+)m([\d.]+)s$/.exec(field);
  if (!m) throw new Error(`cannot read a CPU time from ${JSON.stringify(field)}`);
  return Number(m[1]) * 60 + Number(m[2]);
}

/**
 * The children's user + system seconds from the output of bash's `times` (two lines: the
 * shell's own times, then its children's).
 */
export function childCpuSecondsOfTimes(text: string): number {
  const lines = text.trim().split('\n');
  const children = lines[lines.length - 1]?.trim().split(/\s+/) ?? [];
  if (lines.length < 2 || children.length !== 2)
    throw new Error(`cannot read the output of times: ${JSON.stringify(text.slice(0, 120))}`);
  return secondsOf(children[0] ?? '') + secondsOf(children[1] ?? '');
}

/** Runs `kubectl --kubeconfig <kubeconfig> <args>` (stdin from `input`) and times its CPU. */
export function runKubectlTimed(
  kubeconfig: string,
  args: string[],
  input?: string,
): Promise<TimedKubectl> {
  const script = `"\${KUBECTL:-kubectl}" --kubeconfig "$0" "$@"; rc=$?; echo '${MARK}' >&2; times >&2; exit $rc`;
  return new Promise((resolve, reject) => {
    const child = execFile(
      'bash',
      ['-c', script, kubeconfig, ...args],
      { maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const at = stderr.lastIndexOf(MARK);
        if (at < 0) {
          reject(new Error(`cannot time kubectl ${args[0] ?? ''}: ${stderr.slice(-400)}`));
          return;
        }
        resolve({
          code: err ? ((err as { code?: number }).code ?? 1) : 0,
          stdout,
          stderr: stderr.slice(0, at),
          cpuSeconds: childCpuSecondsOfTimes(stderr.slice(at + MARK.length)),
        });
      },
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}
