// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** Imports that touch the outside world; only adapters and apps may use them. */
const ioModules = [
  'node:*',
  'fs',
  'fs/*',
  'child_process',
  'worker_threads',
  'path',
  'os',
  'http',
  'https',
  'net',
  'onnxruntime-node',
  '@ffmpeg-installer/*',
  '@ffprobe-installer/*',
];

/** The only core modules that may import alphaTab (the notation model and Guitar Pro export). */
const ALPHATAB_FILES = [
  'packages/core/src/music/alphatab.ts',
  'packages/core/src/music/guitarpro.ts',
  'packages/core/src/notation.ts',
];

/** The engine never imports the lab (packages/lab), by package name or by path. */
const NO_LAB_IN_ENGINE = {
  regex: '(^@riffscribe/lab)|((^|/)lab/)',
  message:
    'packages/engine must not import the lab: the lab depends on the engine, not the reverse.',
};

/** Apps never come into the engine or the lab. */
const NO_APPS_IN_ENGINE = {
  regex: '(^@riffscribe/(server|web))|(apps/)',
  message: 'The engine and the lab import only core (and, for the lab, the engine).',
};

/**
 * The lab reaches the engine only through its public entries (`@riffscribe/engine`,
 * `@riffscribe/engine/stages`, `@riffscribe/engine/media-tools`), never by a path into its files.
 */
const LAB_THROUGH_ENGINE_ENTRIES = {
  regex: '(^\\.\\./(\\.\\./)*(engine|core)/)|((^|/)packages/(engine|core)/)',
  message: "The lab imports the engine through @riffscribe/engine's entries, not its files.",
};

/** apps/server never imports apps/web (in both of the server's import rules below). */
const NO_WEB_IN_SERVER = {
  regex: '(^@riffscribe/web)|(apps/web)',
  message: 'apps/server must not import apps/web.',
};

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', 'data/**', '**/*.d.ts', 'coverage/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  ...tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        project: [
          './tsconfig.tests.json',
          './packages/*/tsconfig.json',
          './apps/server/tsconfig.json',
          './apps/web/tsconfig.json',
        ],
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportAllDeclaration', message: 'Use named exports, not export *.' },
      ],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-definitions': 'off',
    },
  },
  // Dependency direction (docs/architecture.md): core imports nothing but zod and the pure MIDI
  // writer (@tonejs/midi, no I/O, runs in the browser too), except its alphaTab notation
  // builders (behind the `@riffscribe/core/notation` entry), which may import alphaTab.
  {
    files: ['packages/core/src/**/*.ts'],
    ignores: ['packages/core/src/**/*.test.ts', ...ALPHATAB_FILES],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod$|@tonejs/midi$|\\.{1,2}/).*',
              message:
                'packages/core imports nothing but zod and @tonejs/midi (see docs/architecture.md).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ALPHATAB_FILES,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod$|@coderline/alphatab$|\\.{1,2}/).*',
              message: 'The notation builders import only zod, alphaTab and core itself.',
            },
          ],
        },
      ],
    },
  },
  // The engine is the product and knows nothing of the lab that measures it (packages/lab uses
  // the engine's public entries, never the other way); apps never come into the engine.
  {
    files: ['packages/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [NO_LAB_IN_ENGINE, NO_APPS_IN_ENGINE] }],
    },
  },
  // The engine's algorithms are pure: only adapters/, bench/ and the CLI touch the outside world
  // (ffmpeg, ONNX Runtime, files).
  {
    files: ['packages/engine/src/**/*.ts'],
    ignores: [
      'packages/engine/src/adapters/**',
      'packages/engine/src/bench/**',
      'packages/engine/src/cli.ts',
      'packages/engine/src/**/*.test.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ioModules,
              message: 'Only engine/adapters may touch ffmpeg, the model or files.',
            },
            NO_LAB_IN_ENGINE,
            NO_APPS_IN_ENGINE,
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'Pure engine code reads no environment.' },
        { name: 'fetch', message: 'Pure engine code does no I/O.' },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'Pure engine code reads no clock.' },
        { object: 'Math', property: 'random', message: 'Use a seeded generator.' },
        { object: 'performance', property: 'now', message: 'Pure engine code reads no clock.' },
      ],
    },
  },
  {
    files: ['packages/lab/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [LAB_THROUGH_ENGINE_ENTRIES, NO_APPS_IN_ENGINE] },
      ],
    },
  },
  // Apps never import each other.
  {
    files: ['apps/server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [NO_WEB_IN_SERVER],
        },
      ],
    },
  },
  // One owner of ffmpeg and ffprobe processes: the engine's tool runner
  // (`@riffscribe/engine/media-tools`). The server starts only its engine children itself.
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/jobs/engine-host.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            NO_WEB_IN_SERVER,
            {
              regex: '^(node:)?child_process$',
              message:
                'Run ffmpeg and ffprobe through runTool from @riffscribe/engine/media-tools (one owner of media processes).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^@riffscribe/server)|(apps/server)|(^@riffscribe/engine)',
              message: 'apps/web imports only packages/core (and browser libraries).',
            },
            { group: ioModules, message: 'The web app runs in the browser: no Node modules.' },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.test.ts', 'e2e/**/*.ts', 'apps/server/test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Listen & check's capture worklet, loaded as it is: the AudioWorkletGlobalScope's names.
    files: ['apps/web/public/**/*.js'],
    languageOptions: {
      globals: {
        AudioWorkletProcessor: 'readonly',
        registerProcessor: 'readonly',
        currentFrame: 'readonly',
        sampleRate: 'readonly',
      },
    },
  },
);
