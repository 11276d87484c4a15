/** Runs cdnctl against an in-process cdn-sim: as a child process, or in-process through run(). */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExecutionContext } from 'ava';
import { run } from '../../../src/cli/run.js';
import { startSimulator, type SimulatorHandle } from '../../../src/simulator/server.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const MAIN = path.join(REPO, 'src', 'cli', 'main.ts');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliEnv {
  sim: SimulatorHandle;
  apiKey: string;
  dir: string;
  /** Writes a file in the test's temp dir and returns its path. */
  file(name: string, content: string): string;
  /** Spawns `node --import tsx src/cli/main.ts ...args` (async, so the in-process sim keeps serving). */
  spawn(args: string[], env?: Record<string, string | undefined>): Promise<CliResult>;
  /** Runs cdnctl in-process (fast; same code path minus the process wrapper). */
  run(args: string[], env?: Record<string, string | undefined>): Promise<CliResult>;
  admin(method: string, p: string, body?: unknown): Promise<unknown>;
}

export async function startCliEnv(t: ExecutionContext, extraKeys: string[] = []): Promise<CliEnv> {
  const apiKey = `cli-${randomUUID()}`;
  const sim = await startSimulator({
    port: 0,
    apiKeys: [
      { key: apiKey, roles: ['Admin'] },
      ...extraKeys.map((key) => ({ key, roles: ['User'] })),
    ],
  });
  const dir = mkdtempSync(path.join(tmpdir(), 'cdnctl-test-'));
  t.teardown(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const baseEnv = (): Record<string, string | undefined> => ({
    CDN_API_URL: sim.url,
    CDN_API_KEY: apiKey,
  });
  return {
    sim,
    apiKey,
    dir,
    file: (name, content) => {
      const p = path.join(dir, name);
      writeFileSync(p, content);
      return p;
    },
    spawn: (args, env = {}) =>
      new Promise((resolve) => {
        const childEnv = { ...process.env, ...baseEnv(), ...env };
        for (const [k, v] of Object.entries(childEnv)) if (v === undefined) delete childEnv[k];
        execFile(
          process.execPath,
          ['--import', 'tsx', MAIN, ...args],
          { cwd: REPO, env: childEnv, timeout: 30_000 },
          (error, stdout, stderr) => {
            const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
            resolve({ code, stdout, stderr });
          },
        );
      }),
    run: async (args, env = {}) => {
      let stdout = '';
      let stderr = '';
      const code = await run(args, {
        stdout: (s) => (stdout += s),
        stderr: (s) => (stderr += s),
        env: { ...baseEnv(), ...env },
      });
      return { code, stdout, stderr };
    },
    admin: async (method, p, body) => {
      const res = await fetch(`${sim.url}${p}`, {
        method,
        headers: { 'X-Sim-Admin-Token': sim.adminToken, 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return text ? (JSON.parse(text) as unknown) : undefined;
    },
  };
}
