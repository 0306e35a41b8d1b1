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
  // The engine's algorithms are pure: only adapters/, eval/, bench/ and the CLI touch the outside
  // world (ffmpeg, ONNX Runtime, files); apps never come into the engine.
  {
    files: ['packages/engine/src/**/*.ts'],
    ignores: [
      'packages/engine/src/adapters/**',
      'packages/engine/src/eval/**',
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
            { regex: '^@riffscribe/(server|web)', message: 'packages/engine imports only core.' },
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
);
