/** Reading cdn-sim's call log in e2e tests: a position in it, and the writes after one. */
import type { SimulatorHandle } from '../../../src/simulator/server.js';

/** Position in the simulator's call log (a mark for {@link writesSince}). */
export function callCount(sim: SimulatorHandle): number {
  return sim.calls.snapshot().log.length;
}

/** Platform writes since position `since`, as `METHOD path`. */
export function writesSince(sim: SimulatorHandle, since: number): string[] {
  return sim.calls
    .snapshot()
    .log.slice(since)
    .filter((c) => c.method !== 'GET')
    .map((c) => `${c.method} ${c.path}`);
}
