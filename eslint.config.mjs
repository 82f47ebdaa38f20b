// Layering, enforced: core is pure, node adapts core to Node, ext is the VS Code glue, webview is the browser.
import tseslint from 'typescript-eslint';

const nodeBuiltins = ['fs', 'fs/*', 'node:*', 'child_process', 'path', 'os', 'crypto', 'http', 'https', 'net', 'stream', 'util', 'worker_threads', 'zlib'];

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.code-server/**', 'lessons/**', 'test/fixtures/**', 'test/integration/fixtures/**', 'scripts/**', '*.mjs', 'bin/**'] },
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
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['vscode'], message: 'src/core is pure: no vscode.' },
          { group: nodeBuiltins, message: 'src/core is pure: what it needs from Node comes in as arguments.' },
          { group: ['**/node/**', '**/ext/**', '**/cli/**', '**/webview/**'], message: 'src/core depends on nothing else in src.' },
        ],
      }],
    },
  },
  {
    files: ['src/node/**/*.ts', 'src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['vscode'], message: 'Only src/ext may import vscode.' },
          { group: ['**/ext/**', '**/webview/**'], message: 'Node adapters and the CLI do not know about the editor.' },
        ],
      }],
    },
  },
  {
    files: ['src/webview/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['vscode'], message: 'The webview runs in a browser.' },
          { group: nodeBuiltins, message: 'The webview runs in a browser.' },
          { group: ['**/core/**', '**/node/**', '**/ext/**', '**/cli/**'], message: 'The webview imports only src/shared.' },
        ],
      }],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['vscode', ...nodeBuiltins], message: 'src/shared is used by the browser too.' },
          { group: ['**/node/**', '**/ext/**', '**/cli/**', '**/webview/**'], message: 'src/shared may use only core types.' },
        ],
      }],
    },
  },
);
