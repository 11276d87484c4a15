#!/usr/bin/env node
/**
 * `cdn-sim`: runs the management API simulator until SIGTERM/SIGINT. Prints
 * `cdn-sim listening on <url>` on stdout once listening, then `cdn-sim storage listening on
 * <url>` for the storage endpoint and `cdn-sim dns listening on <host:port>` for the DNS listener
 * (`--dns-port`). Exit codes: 0 clean stop, 1 start failure (e.g. corrupt
 * state file, a seed the API refuses), 2 bad flags (a seed file of the wrong shape among them).
 */
import type { LevelWithSilent } from 'pino';
import { createLogger } from '../log.js';
import { parseCli, UsageError, USAGE } from './cli-args.js';
import { startSimulator } from './server.js';

async function main(argv: string[]): Promise<number> {
  let options;
  try {
    options = parseCli(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`cdn-sim: ${err.message}\nRun cdn-sim --help for usage.\n`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const logger = createLogger({ name: 'cdn-sim', level: options.logLevel as LevelWithSilent });
  let sim;
  try {
    sim = await startSimulator({ ...options, logger });
  } catch (err) {
    process.stderr.write(`cdn-sim: ${(err as Error).message}\n`);
    return 1;
  }
  process.stdout.write(`cdn-sim listening on ${sim.url}\n`);
  if (sim.storageUrl) process.stdout.write(`cdn-sim storage listening on ${sim.storageUrl}\n`);
  if (sim.dnsAddress) process.stdout.write(`cdn-sim dns listening on ${sim.dnsAddress}\n`);
  if (options.adminToken === undefined)
    process.stdout.write(`cdn-sim admin token: ${sim.adminToken}\n`);
  const handle = sim;
  return new Promise<number>((resolve) => {
    const stop = (signal: string): void => {
      logger.info({ signal }, 'Stopping simulator');
      handle.close().then(
        () => resolve(0),
        (err: unknown) => {
          logger.error({ err }, 'Cannot stop cleanly');
          resolve(1);
        },
      );
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`cdn-sim: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
