/** Public surface of the kind-agnostic controller runtime. */
export * from './types.js';
export * from './errors.js';
export * from './reasons.js';
export {
  Manager,
  runOperator,
  type ManagerConfig,
  type ManagerOptions,
  type RunOptions,
} from './manager.js';
export { OperatorMetrics, type CdnRequestEvent } from './metrics.js';
export {
  ManagedReconciler,
  DEFAULT_TIMINGS,
  isDryRun,
  pollIntervalOf,
  summarizeDiff,
  type ReconcileResult,
  type ReconcilerTimings,
} from './reconciler.js';
export { setCondition, setConditions, findCondition, formatTime } from './conditions.js';
export { classifyError, classifyKubeError, isNetworkError } from './classify.js';
export { KubeApiError, KubeClient, loadKubeConfig, isKubeStatus } from './kube-client.js';
export { parseDuration, formatDuration } from './duration.js';
