/** The ShieldPolicy kind: WAF and DDoS settings (a shield zone) of one pull zone. */
import type { KindModule } from '../kind-module.js';
import { kindParts } from '../kit/kind-parts.js';
import { respelledAt } from '../kit/enum-spelling.js';
import { RENAMED_VALUES } from './enums.js';
import { SHIELD_POLICY_NAMES } from './types.js';

const BOT_MODE = RENAMED_VALUES['BotDetectionExecutionMode'] ?? {};
const SCANNER_MODE = RENAMED_VALUES['UploadScanningScannerMode'] ?? {};

export const SHIELD_POLICY: KindModule = {
  ...SHIELD_POLICY_NAMES,
  ...kindParts(import.meta.url, ['schema', 'controller', 'planner', 'exporter']),
  // Policies are named after the exported PullZoneConfigs and refer to them.
  exportNeeds: ['PullZoneConfig'],
  example: 'shieldpolicy.yaml',
  legacyMoves: [
    respelledAt('spec.botDetection.executionMode', BOT_MODE),
    respelledAt('spec.uploadScanning.csamScanningMode', SCANNER_MODE),
    respelledAt('spec.uploadScanning.antivirusScanningMode', SCANNER_MODE),
    { from: 'spec.ddos.challengeWindow', to: 'spec.ddos.challengeWindowSeconds' },
    { from: 'spec.learningModeUntil', to: 'spec.learningModeEndTime' },
    { from: 'status.deletedRules[].deletedAt', to: 'status.deletedRules[].deletionTime' },
  ],
  sample: {
    refersTo: ['PullZoneConfig'],
    spec: (_name, refs) => ({
      pullZoneRef: { name: refs('PullZoneConfig') },
      waf: { enabled: true },
    }),
  },
};
