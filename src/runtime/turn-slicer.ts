/**
 * Cuts a loop that runs on resolved promises into event-loop turns: microtasks never let
 * timers or I/O in, so a loop that only awaits ready values holds the event loop until it runs
 * dry. {@link TurnSlicer.maybeYield} gives the loop a turn (`setImmediate`) once the current
 * slice has lasted `sliceMs`; before that it returns at once and costs one clock read.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

/** See the module comment. */
export class TurnSlicer {
  private sliceStart: number;

  constructor(
    private readonly sliceMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.sliceStart = now();
  }

  /**
   * Yields one event-loop turn when the slice is used up (then starts a new one). A slice also
   * starts after a wait elsewhere: a loop that slept long yields at its first check, which
   * costs one turn and nothing else.
   */
  async maybeYield(): Promise<void> {
    if (this.now() - this.sliceStart < this.sliceMs) return;
    await nextTurn();
    this.sliceStart = this.now();
  }
}
