/**
 * Child-process entry of the null controller (bench/lib/null-controller.ts), so that it runs on
 * its own event loop like the operator does. Options come as JSON in argv[2]:
 * `{ kubeconfig, path, workers, statusTemplate, apiVersion, kind }`. Prints `NULL-READY` once
 * watching and stops on SIGTERM.
 */
import { KubeClient, loadKubeConfig } from '../../src/runtime/kube-client.js';
import { NullController, type NullControllerOptions } from './null-controller.js';

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? '{}') as NullControllerOptions & {
    kubeconfig: string;
  };
  const kube = await KubeClient.create(loadKubeConfig(options.kubeconfig));
  const controller = new NullController(kube, options);
  controller.start();
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
