// ESLint runs the type-aware rules that catch what the type checker lets through: a promise left
// floating (its rejection lost, its work racing the exit) or handed where a plain function is
// expected. Formatting is prettier's; layers are dependency-cruiser's.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'release/**', 'coverage/**', 'bench/**', 'scripts/**', 'bin/**', 'test/**/*.cjs'] },
  {
    files: ['src/**/*.ts', 'test/**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
);
