/**
 * Child-process entry of the null controller (bench/lib/null-controller.ts), so that it runs on
 * its own event loop like the operator does. Options come as JSON in argv[2]:
 * `{ kubeconfig, path, workers, statusTemplate, apiVersion, kind }`. Prints `NULL-READY` once
 * watching and stops on SIGTERM. Every 5 s it prints `NULL-LAG <epoch ms> <p99 ms>`: its own
 * event-loop delay p99 over those 5 s, measured as the operator's `/metrics` measures it
 * (monitorEventLoopDelay, 10 ms resolution, reset per window), so the bench can tell the lag
 * this machine gives any controller doing the same Kubernetes work from the operator's own.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { KubeClient, loadKubeConfig } from '../../src/runtime/kube-client.js';
import { NullController, type NullControllerOptions } from './null-controller.js';

/** Window of each `NULL-LAG` line, as the bench scrapes the operator's lag. */
const LAG_WINDOW_MS = 5000;

function reportLag(): void {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  setInterval(() => {
    const p99 = delay.percentile(99) / 1e6;
    delay.reset();
    process.stdout.write(`NULL-LAG ${Date.now()} ${p99.toFixed(3)}\n`);
  }, LAG_WINDOW_MS).unref();
}

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? '{}') as NullControllerOptions & {
    kubeconfig: string;
  };
  const kube = await KubeClient.create(loadKubeConfig(options.kubeconfig));
  const controller = new NullController(kube, options);
  controller.start();
  reportLag();
  process.stdout.write('NULL-READY\n');
  process.once('SIGTERM', () => {
    void controller.stop().then(() => {
      process.stdout.write(`NULL-PASSES ${controller.passes}\n`);
      process.exit(0);
    });
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`cannot start the null controller: ${String(err)}\n`);
  process.exit(1);
});
