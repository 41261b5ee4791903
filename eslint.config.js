import js from '@eslint/js';
import { readdirSync } from 'node:fs';
import tseslint from 'typescript-eslint';

const CREDENTIAL_LITERAL = {
  selector:
    'Literal[value=/^(x-api-key|api-key|x-goog-api-key|x-gateway-vk|x-gateway-setup-token|x-gateway-job-ticket|proxy-authorization)$/i]',
  message: 'A credential header name: use src/core/auth/credential-headers.ts (the one list).',
};
const CREDENTIAL_NAMERS = ['src/core/auth/credential-headers.ts', 'src/modules/inference/providers/**'];
const CREDENTIAL_READERS = {
  regex: '(^|/)core/auth/credentials\\.util\\.js$',
  importNames: ['readCredentials', 'passThroughCredential', 'presentsVirtualKey', 'virtualKeyValue'],
  message: 'Credentials are decided once, by the data-plane authenticator: read request.credential.',
};
const SETTLEMENT = 'src/modules/inference/completion/settlement.ts';
const SETTLES = {
  selector:
    "CallExpression[callee.property.name=/^(commit|release)$/]:matches([callee.object.name=/admission$/i], [callee.object.property.name=/admission$/i])",
  message: 'A budget reservation is settled in src/modules/inference/completion/settlement.ts only (one completion path).',
};
const MAYBE_PROMISE = 'src/core/async/maybe-promise.ts';
const PROMISE_CHECK = {
  selector: "BinaryExpression[operator='instanceof'][right.name='Promise']",
  message: 'A value that may be pending: isPending / whenReady of src/core/async/maybe-promise.ts (one convention).',
};
const COMPLETION = 'src/modules/inference/completion/**';
const REQUEST_LOGS = 'src/modules/inference/logs/**';
const INFERENCE_MODULE = 'src/modules/inference/inference.module.ts';
const LOG_ROWS = {
  regex: '(^|/)logs/request-log\\.recorder\\.js$',
  importNames: ['RequestLogRecorder'],
  message: "An inference request's log rows are written by its completion (src/modules/inference/completion/) only.",
};
const LOG_STORE = {
  regex: '(^|/)logs/request-log\\.store\\.js$',
  importNames: ['RequestLogStore'],
  message: 'Request log rows are appended by the recorder the completion drives; read them through the logs query.',
};
const COMPLETION_RECORDS = {
  regex: '(^|/)inference-(metrics|tracing)\\.js$',
  importNames: ['InferenceMetrics', 'endServedTrace', 'endFailedTrace'],
  message: "An inference request's metrics and span end are recorded by its completion (src/modules/inference/completion/) only.",
};

// Boundaries you can see (issue 49 item 5, docs/architecture.md "Boundaries"): src/core is infrastructure
// and imports nothing of src/modules; a module imports another module only through that module's public file,
// `src/modules/<module>/index.ts`. The regexes rely on one convention: no folder or file inside a module bears another
// module's name.
const MODULES = readdirSync(new URL('./src/modules/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const CORE_BOUNDARY = {
  regex: '(^|/)(modules/|app\\.module|app\\.factory)',
  message:
    'src/core is infrastructure and imports no module: declare a port in the core and implement it in the module.',
};
const viaIndex = (module) => ({
  regex: `^(\\.\\./)+(${MODULES.filter((m) => m !== module).join('|')})/(?!index\\.js$)`,
  message: 'Another module only through its public file, src/modules/<module>/index.ts (export what it lacks there).',
});
// Each file gets the import patterns of its zone (the rules above) and of its region (the boundaries); a later block
// replaces a rule's options for the files it matches, so every (zone, region) pair that can meet gets one block, the
// most specific last. `files: [[a, b]]` matches the files that match both.
const IMPORT_ZONES = [
  { files: 'src/**/*.ts', patterns: [CREDENTIAL_READERS, LOG_ROWS, LOG_STORE, COMPLETION_RECORDS] },
  { files: 'src/core/auth/**', patterns: [] },
  { files: COMPLETION, patterns: [CREDENTIAL_READERS, LOG_STORE] },
  { files: REQUEST_LOGS, patterns: [CREDENTIAL_READERS, LOG_ROWS, COMPLETION_RECORDS] },
  { files: INFERENCE_MODULE, patterns: [CREDENTIAL_READERS] },
];
// Finer boundaries on this tree's folders (docs/architecture.md "Boundaries"; request-path.md §3 names its target
// folders, which live inside src/modules/inference here). Each region below repeats its module's own patterns.
const INFERENCE = 'src/modules/inference';
const rule = (regex, message) => ({ regex, message });
const folders = (names) => `^(\\.\\./)+(${names.join('|')})/`;
const RAW_RESPONSE = {
  name: 'node:http',
  importNames: ['ServerResponse'],
  message: 'A module writes a response through src/core/http (raw-json.ts, sse/sse-writer.ts), not on the raw socket.',
};
const MODULE_RULES = {
  governance: [
    rule(
      folders(MODULES.filter((m) => m !== 'governance' && m !== 'inference')),
      'Governance is below the modules that use it: of other modules, only inference/index.ts (ids, catalog).',
    ),
  ],
};
const PROVIDER_CODE = [
  rule(folders(MODULES.filter((m) => m !== 'inference')), 'Provider code imports no other module.'),
  rule(
    folders(['v1', 'routing', 'completion', 'pricing', 'telemetry', 'logs', 'async', 'catalog']),
    'Provider code is below the path, the catalog and the logs: they call it, never the other way.',
  ),
  rule('^@nestjs/', "Provider code is pure: no Nest (a provider format's controller lives in inference/formats/)."),
  rule(
    '(^|/)core/(outbound/(?!cancellation\\.js$)|(auth|persistence|redis|queue)/)',
    'Provider code does no I/O of its own: AdapterIo is its only door.',
  ),
];
const CALLERS = rule('^\\./inference(-pipeline|-agent|\\.controller)\\.js$', 'Below the pipeline: it knows no caller.');
const LEAF = [
  rule(folders(['completion', 'v1', 'formats', 'async']), 'A leaf of the path: it knows no caller and no completion.'),
  rule('(^|/)routing/(?!inference-call\\.js$)', 'A leaf of the path: of routing, only the call it reads.'),
  CALLERS,
];
const INFERENCE_RULES = {
  // Provider code, and the media and Responses-bridge translation it shares.
  providers: PROVIDER_CODE,
  media: PROVIDER_CODE,
  translation: PROVIDER_CODE,
  catalog: [
    rule(
      folders(['v1', 'completion', 'telemetry', 'logs', 'async', 'formats']),
      'The catalog is below the path, its logs and async jobs.',
    ),
  ],
  logs: [
    rule(
      folders(['v1', 'completion', 'pricing', 'telemetry', 'async', 'catalog', 'formats']),
      'Request logs store and read the rows they are given.',
    ),
  ],
  routing: [
    rule(folders(['v1', 'formats', 'async']), 'Routing knows no caller.'),
    rule('(^|/)completion/(?!settlement\\.js$)', 'Routing settles nothing: of the completion, only settlement.ts.'),
  ],
  completion: [rule(folders(['v1', 'formats', 'async']), 'The completion knows no transport or caller.')],
  pricing: LEAF,
  telemetry: LEAF,
  'v1/inference-request.ts': LEAF,
  'v1/inference-responder.ts': [
    rule(
      folders(['completion', 'pricing', 'telemetry', 'logs', 'catalog', 'governance']),
      "The responder writes bytes: pricing, settling, metrics, spans and rows are the completion's.",
    ),
    rule('(^|/)routing/(?!(inference-call|routing-info)\\.js$)', 'The responder writes bytes: it routes nothing.'),
    CALLERS,
  ],
};
const IMPORT_REGIONS = [
  { files: 'src/**/*.ts', patterns: [] },
  { files: 'src/core/**/*.ts', patterns: [CORE_BOUNDARY] },
  ...MODULES.map((m) => ({
    files: `src/modules/${m}/**/*.ts`,
    patterns: [viaIndex(m), ...(MODULE_RULES[m] ?? [])],
    paths: [RAW_RESPONSE],
  })),
  ...Object.entries(INFERENCE_RULES).map(([part, patterns]) => ({
    files: part.endsWith('.ts') ? `${INFERENCE}/${part}` : `${INFERENCE}/${part}/**/*.ts`,
    patterns: [viaIndex('inference'), ...patterns],
    paths: [RAW_RESPONSE],
  })),
];
const prefix = (glob) => glob.replace(/\*.*$/, '');
const meet = (a, b) => prefix(a).startsWith(prefix(b)) || prefix(b).startsWith(prefix(a));
function importRules() {
  return IMPORT_ZONES.flatMap((zone) =>
    IMPORT_REGIONS.filter((region) => meet(zone.files, region.files)).map((region) => ({
      files: [[zone.files, region.files]],
      rules: {
        'no-restricted-imports': ['error', { patterns: [...zone.patterns, ...region.patterns], paths: region.paths ?? [] }],
      },
    })),
  );
}

export default tseslint.config(
  { ignores: ['dist/**', 'clients/typescript/dist/**', 'clients/typescript/src/generated/**', 'node_modules/**', 'data/**', 'coverage/**', 'openapi/**', 'eslint.config.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-extraneous-class': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Plain JavaScript scripts (benchmarks): linted without type information.
    files: ['**/*.mjs', 'clients/typescript/bin/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      parserOptions: { projectService: false },
      globals: {
        console: 'readonly',
        process: 'readonly',
        fetch: 'readonly',
        setTimeout: 'readonly',
        performance: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
      },
    },
  },
  // One list of credential header names (issue 43): src/core/auth/credential-headers.ts. A provider adapter writes its
  // own wire's key header; nothing else spells one, so a second list cannot drift from the first.
  // One completion path (issue 49 item 1): a budget reservation is committed or released in
  // src/modules/inference/completion/settlement.ts only.
  // A value that may still be pending (a snapshot being rebuilt) is tested in one way: src/core/async/maybe-promise.ts.
  // (A later block replaces a rule's options for the files it matches, hence one block per set of exceptions.)
  {
    files: ['src/**/*.ts'],
    ignores: [...CREDENTIAL_NAMERS, SETTLEMENT, MAYBE_PROMISE],
    rules: { 'no-restricted-syntax': ['error', CREDENTIAL_LITERAL, SETTLES, PROMISE_CHECK] },
  },
  { files: [SETTLEMENT], rules: { 'no-restricted-syntax': ['error', CREDENTIAL_LITERAL, PROMISE_CHECK] } },
  { files: CREDENTIAL_NAMERS, rules: { 'no-restricted-syntax': ['error', SETTLES, PROMISE_CHECK] } },
  { files: [MAYBE_PROMISE], rules: { 'no-restricted-syntax': ['error', CREDENTIAL_LITERAL, SETTLES] } },
  // One place decides a credential (issue 49 item 3): the auth folder reads presented credentials; everything after
  // the route gate reads its decision (`request.principal`, `request.credential`).
  // One completion path (issue 49 item 1): only the completion (src/modules/inference/completion/) writes request
  // log rows, records inference metrics and ends a request's span; the request-logs read side alone holds the store.
  // Boundaries (issue 49 item 5): src/core imports no module; a module imports another only through its index.ts;
  // the finer layering of governance and of the inference module's folders (docs/architecture.md "Boundaries").
  ...importRules(),
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
);
