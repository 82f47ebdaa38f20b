// Layering, enforced: core is pure, node adapts core to Node, ext is the VS Code glue, webview is the browser.
import tseslint from 'typescript-eslint';

const nodeBuiltins = [
  'fs',
  'fs/*',
  'node:*',
  'child_process',
  'path',
  'os',
  'crypto',
  'http',
  'https',
  'net',
  'stream',
  'util',
  'worker_threads',
  'zlib',
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'out/**',
      'node_modules/**',
      '.code-server/**',
      'lessons/**',
      'test/fixtures/**',
      'test/integration/fixtures/**',
      'scripts/**',
      '*.mjs',
      'bin/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.ts', 'test/**/*.ts'],
    languageOptions: { parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // House style: a function reads as its named steps, each short enough to hold in the head. A function kept
    // longer says why, in an `eslint-disable-next-line max-lines-per-function -- <reason>` above it.
    files: ['src/**/*.ts'],
    // And a file holds one concern a newcomer can read through: 400 lines, counted as written.
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
      'max-lines': ['error', { max: 400 }],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['vscode'], message: 'src/core is pure: no vscode.' },
            { group: nodeBuiltins, message: 'src/core is pure: what it needs from Node comes in as arguments.' },
            {
              group: ['**/node/**', '**/ext/**', '**/cli/**', '**/webview/**', '**/worlds/**'],
              message: 'src/core depends on nothing else in src.',
            },
          ],
        },
      ],
    },
  },
  {
    // The worlds lessons run (the queue world packs import, lesson.json's template scenarios): pure like core,
    // and above it: they may use core, and nothing that runs processes or draws.
    files: ['src/worlds/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['vscode', ...nodeBuiltins], message: 'src/worlds is pure, like src/core.' },
            {
              group: ['**/node/**', '**/ext/**', '**/cli/**', '**/webview/**', '**/shared/**'],
              message: 'src/worlds uses only src/core.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/node/**/*.ts', 'src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['vscode'], message: 'Only src/ext may import vscode.' },
            {
              group: ['**/ext/**', '**/webview/**'],
              message: 'Node adapters and the CLI do not know about the editor.',
            },
          ],
        },
      ],
    },
  },
  // Inside the layers, the folders keep their concerns apart.
  {
    files: ['src/core/model/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['vscode', ...nodeBuiltins], message: 'src/core is pure.' },
            {
              group: ['../*/**', '!../model/**'],
              message: 'core/model is the base of core: it imports nothing else in core.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/node/sandbox/**/*.ts', 'src/node/run/**/*.ts', 'src/node/languages/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['vscode'], message: 'Only src/ext may import vscode.' },
            {
              group: ['**/ext/**', '**/webview/**', '**/cli/**'],
              message: 'Node adapters do not know about the editor or the CLI.',
            },
            {
              group: [
                '**/node/check/**',
                '**/node/service/**',
                '**/node/engine/**',
                '**/node/packs/**',
                '**/node/authoring/**',
                '../check/**',
                '../service/**',
                '../engine/**',
                '../packs/**',
                '../authoring/**',
              ],
              message:
                'Running a process knows nothing of checks, packs or the engine: those use it, not the other way round.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/ext/**/*.ts', 'src/extension.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/node/check/**',
                '**/node/engine/**',
                '**/node/sandbox/**',
                '**/node/run/runner',
                '**/node/run/interactive',
                '**/node/authoring/**',
              ],
              message:
                'The extension host runs no check, engine or learner process itself: it asks the check service (node/service/client).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/webview/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['vscode'], message: 'The webview runs in a browser.' },
            { group: nodeBuiltins, message: 'The webview runs in a browser.' },
            {
              group: ['**/core/**', '**/node/**', '**/ext/**', '**/cli/**'],
              message: 'The webview imports only src/shared.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['vscode', ...nodeBuiltins], message: 'src/shared is used by the browser too.' },
            {
              group: ['**/node/**', '**/ext/**', '**/cli/**', '**/webview/**'],
              message: 'src/shared may use only types of src/core and src/worlds.',
            },
          ],
        },
      ],
    },
  },
);
