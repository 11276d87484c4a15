// Layering of src/ (docs/development.md "Layout"), as lint: an import of another layer from a
// relative path. Each layer lists what it must not import; the leaf modules src/api-group.ts,
// src/version.ts and src/log.ts import nothing of src/, so any layer may use them.
const up = '^(\\.\\./)+';
// eslint-disable-next-line @typescript-eslint/explicit-function-return-type -- plain JS, no types
const forbid = (layers, why) => ({
  regex: `${up}(${layers.join('|')})(/|\\.js$)`,
  message: `${why} (docs/development.md, Layout)`,
});
/** One flat-config object per layer of src/. */
export const layerRules = [
  {
    files: ['src/runtime/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            forbid(
              ['cdn', 'controllers', 'cli', 'simulator', 'main', 'config'],
              'the runtime is kind-agnostic: it never imports the CDN client, the kinds, cdnctl, cdn-sim or the operator wiring',
            ),
          ],
        },
      ],
    },
  },
  {
    files: ['src/cdn/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^@kubernetes/',
              message: 'the CDN client has no Kubernetes imports (docs/development.md, Layout)',
            },
            forbid(
              ['runtime', 'controllers', 'cli', 'simulator', 'main', 'config'],
              'the CDN client depends on nothing of the operator (shared helpers live in src/common)',
            ),
          ],
        },
      ],
    },
  },
  {
    files: ['src/controllers/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            forbid(
              ['cli', 'simulator', 'main', 'config'],
              'a kind never imports cdnctl, cdn-sim or the operator wiring',
            ),
          ],
        },
      ],
    },
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            forbid(
              ['simulator', 'main', 'config'],
              'cdnctl never imports cdn-sim or the operator wiring',
            ),
          ],
        },
      ],
    },
  },
  {
    files: ['src/common/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            forbid(
              ['runtime', 'cdn', 'controllers', 'cli', 'simulator', 'main', 'config'],
              'src/common is neutral: the runtime and the CDN client both use it, it imports neither',
            ),
          ],
        },
      ],
    },
  },
  {
    files: ['src/simulator/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            forbid(
              ['runtime', 'controllers', 'cli', 'main', 'config'],
              'cdn-sim stands for the platform: it never imports the operator or cdnctl',
            ),
          ],
        },
      ],
    },
  },
];
