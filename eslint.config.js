// ESLint: typescript-eslint's type-aware rules where they catch real mistakes (floating promises,
// misused promises, unsafe any), React's rules of hooks for the lab. Formatting is not its job but
// Prettier's (.prettierrc.json, `npm run lint` checks it): eslint-config-prettier, last, turns off any
// rule that would fight it.
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier/flat';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'test-results/**',
      'docs/gallery/**',
      '**/*.mjs',
      '**/*.cjs',
      'examples/**/node_modules/**',
      'test/seventh-loop/files/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      // `const { dropped: _, ...kept } = x` and `_`-named parameters are how this code says "not used".
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // A `let` read by closures before its one assignment cannot be a const (it would be in its dead zone).
      'prefer-const': ['error', { destructuring: 'all', ignoreReadBeforeAssign: true }],
      // prom-client calls a metric's collect() with the metric as `this`: the owner is reached as `self`.
      '@typescript-eslint/no-this-alias': ['error', { allowedNames: ['self'] }],
    },
  },
  {
    files: ['web/**/*.tsx', 'web/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  prettier,
);
