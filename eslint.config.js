// ESLint: typescript-eslint's type-aware rules, the React hooks rules and the import rules
// (no duplicate imports, no cycles); formatting is Prettier's, so its overlapping rules are off.
// `npm run lint` runs this with --max-warnings 0, and `npm test` runs `npm run lint`.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'build/', 'coverage/', 'data/', 'node_modules/', 'src/generated/', 'test-results/', '.tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node, ...globals.browser },
    },
    plugins: { 'import-x': importX },
    settings: { 'import-x/extensions': ['.ts', '.tsx', '.js'] },
    rules: {
      'import-x/no-duplicates': 'error',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // `_name` marks a parameter or binding kept on purpose (a callback's signature, a rest split)
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['src/web/**/*.tsx', 'src/web/**/*.ts', 'tests/web/**/*.tsx', 'tests/web/**/*.ts'],
    ...reactHooks.configs.flat.recommended,
  },
  { files: ['eslint.config.js'], ...tseslint.configs.disableTypeChecked },
  prettier,
);
