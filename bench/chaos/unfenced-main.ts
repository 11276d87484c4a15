/**
 * The operator with leader fencing switched off, for showing that scenario 5b can fail
 * (`CHAOS_OPERATOR_ENTRY=bench/chaos/unfenced-main.ts`). Never shipped: it restores the
 * behaviour before src/runtime/fence.ts — a replica counts as leader until its renewal loop
 * notices the lost lease, with no wall-clock renew deadline and no deadline timer — by
 * patching LeaderElector before src/main.ts runs.
 */
import { LeaderElector } from '../../src/runtime/leader-election.js';

const proto = LeaderElector.prototype as unknown as {
  isLeader(this: { leading: boolean }): boolean;
  armDeadline(): void;
};
proto.isLeader = function isLeaderUnfenced(this: { leading: boolean }): boolean {
  return this.leading;
};
proto.armDeadline = (): void => undefined;

await import('../../src/main.js');
