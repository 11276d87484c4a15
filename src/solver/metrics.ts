/**
 * The solver's metric, on the operator's registry (runtime/metrics.ts), registered only when
 * the solver runs: `cdn_operator_dns01_challenges_total{action, result}`.
 */
import { Counter, type Registry } from 'prom-client';
import type { ChallengeAction } from './challenge.js';
import type { ChallengeResult } from './solve.js';

/** Counts the challenges the solver answered. */
export class SolverMetrics {
  readonly challenges: Counter<'action' | 'result'>;

  constructor(registry: Registry) {
    this.challenges = new Counter({
      name: 'cdn_operator_dns01_challenges_total',
      help: 'DNS-01 challenges answered by the solver, by action (Present, CleanUp) and result (written, present, removed, absent, refused, failed).',
      labelNames: ['action', 'result'],
      registers: [registry],
    });
  }

  /** Counts one answered challenge. */
  recordChallenge(action: ChallengeAction, result: ChallengeResult): void {
    this.challenges.inc({ action, result });
  }
}
