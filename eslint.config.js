import tseslint from 'typescript-eslint';
import boundaries from './eslint/module-boundaries.js';

// Layering the linter holds (docs/architecture.md; proved by eslint/boundaries.test.ts): Fastify stops at routes
// files and platform/http; SMPP code stays in src/carrier; queries stay in repos; feature modules never import
// each other in a cycle nor reach another module's repo.
const FASTIFY = { group: ['fastify', '@fastify/*'], message: 'Fastify belongs in *.routes.ts and src/platform/http (services never see HTTP).' };
const TYPEBOX_ONLY = { ...FASTIFY, group: ['fastify', '@fastify/*', '!@fastify/type-provider-typebox'] };
const SMPP = {
  group: ['smpp', '**/carrier/smpp/*', '**/carrier/simulator/*'],
  message: 'SMPP code stays in src/carrier: go through the carrier port (carrier/carrier.ts) or carrier/index.ts.',
};
const QUERIES = { group: ['drizzle-orm', 'drizzle-orm/*'], message: 'Queries belong in *.repo.ts.' };
const restrict = (...patterns) => ({ '@typescript-eslint/no-restricted-imports': ['error', { patterns }] });
const SRC = ['src/**/*.ts'];
const TESTS = ['src/**/*.test.ts'];

export default tseslint.config(
  { ignores: ['node_modules', 'data', 'dist', 'web/dist', 'coverage', 'src/platform/db/migrations', 'test-results'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  { files: SRC, ignores: TESTS, plugins: { tasman: boundaries }, rules: { 'tasman/no-module-cycle': 'error', 'tasman/no-foreign-repo': 'error' } },
  // Everything in src by default: no Fastify, no SMPP.
  { files: SRC, ignores: TESTS, rules: restrict(FASTIFY, SMPP) },
  // Services and jobs: neither, and no query builder either.
  { files: ['src/modules/**/*.service.ts', 'src/modules/**/*.jobs.ts'], ignores: TESTS, rules: restrict(FASTIFY, SMPP, QUERIES) },
  // Schemas: TypeBox through the type provider, nothing else of Fastify.
  { files: ['src/**/*.schemas.ts'], rules: restrict(TYPEBOX_ONLY, SMPP, QUERIES) },
  // Routes files: Fastify yes, queries no.
  { files: ['src/**/*.routes.ts'], rules: restrict(SMPP, QUERIES) },
  // The HTTP platform and the composition root.
  { files: ['src/platform/http/**/*.ts', 'src/app.ts', 'src/compose.ts', 'src/main.ts'], ignores: TESTS, rules: restrict(SMPP) },
  // The carrier: SMPP is its business; it never sees HTTP.
  { files: ['src/carrier/**/*.ts'], ignores: TESTS, rules: restrict(FASTIFY) },
);
