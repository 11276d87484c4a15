import { readdirSync } from 'node:fs';
import { URL, fileURLToPath } from 'node:url';
// Layering of src/ (docs/development.md "Layout"), as lint: an import of another layer from a
// relative path. Each layer lists what it must not import; the leaf modules src/api-group.ts,
// src/version.ts and src/log.ts import nothing of src/, so any layer may use them.
const up = '^(\\.\\./)+';
// eslint-disable-next-line @typescript-eslint/explicit-function-return-type -- plain JS, no types
const forbid = (layers, why) => ({
  regex: `${up}(${layers.join('|')})(/|\\.js$)`,
  message: `${why} (docs/development.md, Layout)`,
});
const CONTROLLERS = fileURLToPath(new URL('./src/controllers/', import.meta.url));

/**
 * Kind folders that belong together (issue 43): within a family, folders may import each
 * other; across families a kind imports only another kind's `types.js` (its names and types).
 */
const FAMILIES = [
  ['shieldpolicy', 'shieldwafrule', 'shieldratelimit', 'shieldaccesslist', 'shieldrule-common'],
  ['dnszone', 'dnsrecord'],
  ['containerapp', 'containerregistry'],
];

/** Folders of src/controllers that are not kinds: the kit and shared/ import no kind. */
const NOT_KINDS = new Set(['kit', 'shared']);

// eslint-disable-next-line @typescript-eslint/explicit-function-return-type -- plain JS, no types
const kindFolders = () =>
  readdirSync(CONTROLLERS, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !NOT_KINDS.has(d.name))
    .map((d) => d.name)
    .sort();

// eslint-disable-next-line @typescript-eslint/explicit-function-return-type -- plain JS, no types
const familyOf = (folder) => FAMILIES.find((f) => f.includes(folder)) ?? [folder];

// eslint-disable-next-line @typescript-eslint/explicit-function-return-type -- plain JS, no types
const controllersLayer = (files, extra) => ({
  files,
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          forbid(
            ['cli', 'simulator', 'main', 'config'],
            'a kind never imports cdnctl, cdn-sim or the operator wiring',
          ),
          ...extra,
        ],
      },
    ],
  },
});

/**
 * One config object per folder of src/controllers: a kind imports the kit, shared/, its own
 * family and other kinds' `types.js` only; the kit and shared/ import no kind at all. (A flat
 * config object replaces the rule's options of an earlier one, so each repeats the layer's.)
 */
// eslint-disable-next-line @typescript-eslint/explicit-function-return-type -- plain JS, no types
const kindFolderRules = () => {
  const kinds = kindFolders();
  const ofKind = kinds.map((folder) => {
    const others = kinds.filter((k) => !familyOf(folder).includes(k));
    return controllersLayer(
      [`src/controllers/${folder}/**/*.ts`],
      [
        {
          regex: `${up}(${others.join('|')})/(?!types\\.js$)`,
          message:
            "a kind imports only the kit, shared/, its family and another kind's types.js (docs/development.md, Layout)",
        },
      ],
    );
  });
  const neutral = [...NOT_KINDS].map((folder) =>
    controllersLayer(
      [`src/controllers/${folder}/**/*.ts`],
      [
        {
          regex: `${up}(${kinds.join('|')})/`,
          message: `src/controllers/${folder} imports no kind (docs/development.md, Layout)`,
        },
      ],
    ),
  );
  return [...ofKind, ...neutral];
};

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
  controllersLayer(['src/controllers/**/*.ts'], []),
  ...kindFolderRules(),
  {
    // The composition of CdnPolicies (src/composition/routes-controller.ts): reads the kinds'
    // names and pure composition, writes through the runtime's client, calls no platform API.
    files: ['src/composition/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            forbid(
              ['cdn', 'cli', 'simulator', 'main', 'config'],
              'the composition makes objects of the kinds; it never calls the CDN client, cdnctl, cdn-sim or the operator wiring',
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
