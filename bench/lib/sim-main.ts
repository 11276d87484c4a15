/**
 * Child-process entry that runs cdn-sim for the bench (its own event loop, so the bench's
 * bookkeeping never delays simulated responses). Options come as JSON in argv[2]:
 * `{ apiKeys, adminToken, faults?, callLogLimit? }`. Prints `SIM-READY <url>` when listening
 * and stops on SIGTERM.
 */
import { startSimulator, type SimulatorOptions } from '../../src/simulator/server.js';

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? '{}') as SimulatorOptions;
  const sim = await startSimulator(options);
  process.stdout.write(`SIM-READY ${sim.url}\n`);
  process.once('SIGTERM', () => {
    void sim.close().then(() => process.exit(0));
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`cannot start simulator: ${String(err)}\n`);
  process.exit(1);
});
