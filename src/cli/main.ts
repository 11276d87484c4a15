#!/usr/bin/env node
/** Entry point of `cdnctl` (see docs/cdnctl.md). */
import { run } from './run.js';

const code = await run(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
});
process.exitCode = code;
