/**
 * A preload (`node --import tsx --import ./test/support/record-loads.ts ...`) that writes the URL
 * of every module the process loads, one a line, to the file `$RECORD_LOADS_TO` when it exits:
 * a test asserts what a command does not load (cdnctl's help loads no part of a kind).
 */
import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const loaded: string[] = [];
registerHooks({
  load(url, context, next) {
    loaded.push(url);
    return next(url, context);
  },
});
process.on('exit', () => {
  const out = process.env['RECORD_LOADS_TO'];
  if (out) writeFileSync(out, `${loaded.join('\n')}\n`);
});
