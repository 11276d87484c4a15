/** Runs the real cdnctl (src/cli/main.ts) as a child process against a simulator. */
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../../..');

/** What one cdnctl run answered. */
export interface CdnctlResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `cdnctl ARGS` with CDN_API_URL / CDN_API_KEY pointing at `apiUrl`. */
export function runCdnctl(apiUrl: string, apiKey: string, args: string[]): Promise<CdnctlResult> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), ...args],
      {
        cwd: ROOT,
        env: { ...process.env, CDN_API_KEY: apiKey, CDN_API_URL: apiUrl },
        maxBuffer: 64 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        done({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}
