import js from '@eslint/js';
import i18next from 'eslint-plugin-i18next';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** What sits above the libraries: the services, the gateway and the composition root. */
const ABOVE_PACKAGES = {
  group: ['@im/gateway', '@im/gateway/*', '@im/service-*', '@im/server', '@im/server/*'],
  message: 'packages/ are the libraries services, gateway and server build on: they must not import them.',
};
const ABOVE_PACKAGES_BY_PATH = {
  regex: '^(\\.\\./)+(services|gateway|server)(/|$)',
  message: 'packages/ must not reach into services, the gateway or server by relative path.',
};
/** The test kit is for tests: production code starts local servers through @im/dev-servers. */
const TEST_KIT = {
  group: ['@im/testkit', '@im/testkit/*'],
  message: 'Production code must not import the test kit (use @im/dev-servers to start local servers).',
};

/** no-restricted-imports does not see import(): the same limits for dynamic imports. */
const dynamicImport = (regex, message) => ({
  selector: `ImportExpression[source.type='Literal'][source.value=/${regex}/]`,
  message,
});
const ABOVE_PACKAGES_DYNAMIC = dynamicImport(
  '^(@im\\u002F(gateway|service-|server)|(\\.\\.\\u002F)+(services|gateway|server)(\\u002F|$))',
  ABOVE_PACKAGES.message,
);
const TEST_KIT_DYNAMIC = dynamicImport('^@im\\u002Ftestkit(\\u002F|$)', TEST_KIT.message);

/** Services are peers: one reaches another through the broker (its actions and events), never through its code. */
const OTHER_SERVICE = {
  group: ['@im/service-*'],
  message:
    'A service must not import another service: call its actions or hear its events, or move the shared code to packages/.',
};
const OTHER_SERVICE_DYNAMIC = dynamicImport('^@im\\u002Fservice-', OTHER_SERVICE.message);
const OUT_OF_SERVICE_MESSAGE =
  'A service must not import files outside its own folder by relative path (another service, or a package: use its @im/ name).';
/**
 * A file `depth` folders below its service's folder leaves it with
 * `depth + 1` `../`: the limits for the files at each depth (deeper ones are
 * held to the deepest).
 */
const MAX_SERVICE_DEPTH = 8;
function serviceBlocks() {
  const blocks = [];
  for (let depth = 0; depth <= MAX_SERVICE_DEPTH; depth++) {
    const up = { regex: `^(\\./)?${'(\\.\\./)'.repeat(depth + 1)}`, message: OUT_OF_SERVICE_MESSAGE };
    const upDynamic = dynamicImport(`^(\\.\\u002F)?${'\\.\\.\\u002F'.repeat(depth + 1)}`, OUT_OF_SERVICE_MESSAGE);
    const folders = (n) => '*/'.repeat(n) + (depth === MAX_SERVICE_DEPTH ? '**/' : '');
    blocks.push({
      files: [`services/*/${folders(depth)}*.{ts,tsx,js,mjs}`],
      rules: {
        'no-restricted-imports': ['error', { patterns: [OTHER_SERVICE, up] }],
        'no-restricted-syntax': ['error', OTHER_SERVICE_DYNAMIC, upDynamic],
      },
    });
    // Production code under src/ is also kept from the test kit.
    if (depth > 0)
      blocks.push({
        files: [`services/*/src/${folders(depth - 1)}*.{ts,tsx}`],
        rules: {
          'no-restricted-imports': ['error', { patterns: [OTHER_SERVICE, up, TEST_KIT] }],
          'no-restricted-syntax': ['error', OTHER_SERVICE_DYNAMIC, upDynamic, TEST_KIT_DYNAMIC],
        },
      });
  }
  return blocks;
}

/** The benchmark drives the platform through its API and the services' public packages, never their source files. */
const SERVICE_SOURCES = {
  regex: '^(\\./)?(\\.\\./)+services(/|$)',
  message: "The benchmark must not import services' files by path: use their package (@im/service-*) or the API.",
};
const SERVICE_SOURCES_DYNAMIC = dynamicImport('^(\\.\\.\\u002F)+services(\\u002F|$)', SERVICE_SOURCES.message);

/**
 * Client files whose texts are not yet translated (they change with work of
 * their own): kept out of the literal-string check until they are.
 */
export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/dist-types/**', 'data/**', 'benchmark/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-console': 'off',
    },
  },
  // Package boundaries: libraries under packages/ never reach up into what
  // builds on them, and production code never loads the test kit.
  {
    files: ['packages/**/*.{ts,tsx,js,mjs}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [ABOVE_PACKAGES, ABOVE_PACKAGES_BY_PATH] }],
      'no-restricted-syntax': ['error', ABOVE_PACKAGES_DYNAMIC],
    },
  },
  {
    files: ['packages/*/src/**/*.{ts,tsx}'],
    ignores: ['packages/testkit/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [ABOVE_PACKAGES, ABOVE_PACKAGES_BY_PATH, TEST_KIT] }],
      'no-restricted-syntax': ['error', ABOVE_PACKAGES_DYNAMIC, TEST_KIT_DYNAMIC],
    },
  },
  {
    files: ['server/src/**/*.{ts,tsx}', 'gateway/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [TEST_KIT] }],
      'no-restricted-syntax': ['error', TEST_KIT_DYNAMIC],
    },
  },
  // Service boundaries: no service imports another, by package or by path.
  ...serviceBlocks(),
  {
    files: ['benchmark/**/*.{ts,tsx,js,mjs}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [SERVICE_SOURCES] }],
      'no-restricted-syntax': ['error', SERVICE_SOURCES_DYNAMIC],
    },
  },
  {
    files: ['client/src/**/*.tsx', 'client/src/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      // API paths come from the typed client (@im/api-client), generated from the endpoint table.
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Literal[value=/^\\/api\\//], TemplateElement[value.raw=/^\\/api\\//]',
          message: "An API path: call api.call('service.action', params), or apiPath(...) for a raw endpoint.",
        },
      ],
    },
  },
  // Every text a person reads in the web app goes through t() (docs/i18n.md):
  // a literal in JSX (text, or an attribute people read or hear) fails.
  {
    files: ['client/src/**/*.tsx'],
    ignores: ['client/src/**/*.test.tsx', 'client/src/test/**'],
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': [
        'error',
        {
          mode: 'jsx-only',
          'jsx-attributes': {
            include: [
              'aria-label',
              'aria-description',
              'aria-roledescription',
              'aria-valuetext',
              'title',
              'placeholder',
              'alt',
              'label',
            ],
          },
          // Symbols, punctuation and emoji alone are no language.
          words: { exclude: ['[0-9!-/:-@[-`{-~\\s·…→←↑↓×✕✓•—–]+', '^\\p{Emoji}+$'] },
        },
      ],
    },
  },
  {
    files: ['client/public/sw.js'],
    languageOptions: {
      globals: { self: 'readonly', clients: 'readonly', URL: 'readonly' },
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
