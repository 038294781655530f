import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

// The direction of imports (docs/architecture.md): dashboard → api-client → (HTTP) → guild API, both → lib/discord,
// and nothing in lib/ reaches back up into components/ or app/. Flat config replaces a rule's options for a file
// rather than merging them, so every group of files below lists all the restrictions that apply to it.
const NO_UI = [
  {
    group: ["@/components", "@/components/*"],
    message: "lib/ never imports components/: move what both need into lib.",
  },
  { group: ["@/app", "@/app/*"], message: "lib/ never imports app/: routes call lib, not the other way round." },
];
// The dashboard talks to the guild API only over HTTP through lib/api-client, so it works against Discord too.
const NO_GUILD_API = [
  {
    group: ["@/lib/guild-api", "@/lib/guild-api/*"],
    message: "The dashboard never imports the built-in API's internals: call it through @/lib/api-client.",
  },
];
// The dashboard's own tables (sessions, audit history, bulk-ban jobs) go through its client in @/lib/dashboard/db;
// the generated Prisma module is for types only.
const PRISMA_TYPES_ONLY = [
  {
    group: ["@/lib/generated/prisma", "@/lib/generated/prisma/*"],
    allowTypeImports: true,
    message: "Use the dashboard's client from @/lib/dashboard/db; import Prisma's generated module for types only.",
  },
];
const NO_DASHBOARD = [
  { group: ["@/lib/dashboard", "@/lib/dashboard/*"], message: "Only the dashboard imports lib/dashboard." },
];
const restrict = (...lists) => ["error", { patterns: lists.flat() }];

// SQL lives only in lib/guild-api/store/ (one module per table: its statements, its row type, small named functions).
// Everywhere else the store's connection cannot be imported and nothing prepares or writes SQL text. Seeds, scripts,
// tests and the bench are exempt: they write fixtures and assert rows below the API on purpose.
// The rule is no-restricted-syntax, not no-restricted-imports, so that another block restricting imports (the layout's
// import directions) does not replace it: in a flat config, a later block's options for a rule replace earlier ones.
const SQL_ONLY_IN_STORE = "SQL belongs in lib/guild-api/store/<table>.ts: call a named store function instead.";
const SQL_TEXT =
  /^\s*(SELECT\s[\s\S]*\bFROM\b|INSERT\s+(OR\s+\w+\s+)?INTO\b|REPLACE\s+INTO\b|UPDATE\s+\w+\s+SET\b|DELETE\s+FROM\b|CREATE\s+(TABLE|INDEX|TRIGGER)\b|PRAGMA\s)/
    .source;
const sqlOutsideStore = [
  "ImportDeclaration[source.value=/(^|\\/)store\\/db$/] > ImportSpecifier[imported.name=/^(sql|db|openDatabase)$/]",
  "ImportExpression[source.value=/(^|\\/)store\\/db$/]",
  "ImportDeclaration[source.value='better-sqlite3']",
  "CallExpression[callee.name='sql']",
  "CallExpression[callee.object.name='sql'][callee.property.name=/^(get|all|value|values|row|rows|run)$/]",
  "TaggedTemplateExpression[tag.name='sql']",
  "CallExpression[callee.property.name=/^(prepare|exec|pragma)$/][arguments.0.type=/^(Literal|TemplateLiteral)$/]",
  "CallExpression[callee.property.name=/^(prepare|exec|pragma|transaction)$/][callee.object.callee.name='db']",
  `Literal[value=/${SQL_TEXT}/]`,
  `TemplateElement[value.raw=/${SQL_TEXT}/]`,
  // A template that starts a statement and interpolates the rest (`SELECT ${columns} FROM …`).
  "TemplateLiteral > TemplateElement:first-child[value.raw=/^\\s*(SELECT|INSERT|REPLACE|UPDATE|DELETE)\\s/]",
].map((selector) => ({ selector, message: SQL_ONLY_IN_STORE }));

// One node AsyncLocalStorage in the process (lib/server/async-context.ts): on Node 20 each one ever entered adds
// async_hooks work to every promise, tick and timer of the process, the guild API's included (issue #31). New stores
// are ContextStorage instances, keys of its one frame. A no-restricted-syntax selector for the same reason as above.
const ONE_ASYNC_LOCAL_STORAGE = [
  {
    selector:
      "ImportDeclaration[source.value=/^(node:)?async_hooks$/] > ImportSpecifier[imported.name='AsyncLocalStorage']",
    message: "Use ContextStorage from lib/server/async-context.ts: one AsyncLocalStorage per process (issue #31).",
  },
];

// The dashboard's links say whether they prefetch (they do not, unless a reason is written beside one): its pages are
// dynamic, with no loading state to prefetch, and every live refresh empties the router's cache, so each visible link
// was fetched again, a whole server render per link about once a second while a moderator watched (issue #31's soak).
const DASHBOARD_LINKS_SAY_PREFETCH = [
  {
    selector: "JSXOpeningElement[name.name='Link']:not(:has(JSXAttribute[name.name='prefetch']))",
    message: "Give the dashboard's <Link> prefetch={false} (or a prefetch with a comment why): see eslint.config.mjs.",
  },
];

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  { ignores: ["node_modules/**", ".next/**", ".data/**", "lib/generated/**", "test-results/**", "next-env.d.ts"] },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // This rule only says the React Compiler will skip a component (TanStack Table, react-hook-form's watch);
      // Guildhall does not run the React Compiler.
      "react-hooks/incompatible-library": "off",
    },
  },
  { files: ["lib/**"], rules: { "no-restricted-imports": restrict(NO_UI) } },
  {
    files: ["lib/dashboard/**"],
    rules: { "no-restricted-imports": restrict(NO_UI, NO_GUILD_API, PRISMA_TYPES_ONLY) },
  },
  // The one place that constructs the dashboard's Prisma client.
  { files: ["lib/dashboard/db.ts"], rules: { "no-restricted-imports": restrict(NO_UI, NO_GUILD_API) } },
  {
    files: ["app/(dashboard)/**", "app/(auth)/**", "app/api/auth/**", "components/**"],
    rules: { "no-restricted-imports": restrict(NO_GUILD_API, PRISMA_TYPES_ONLY) },
  },
  {
    // The built-in provider's pages (OAuth2 consent, Developer Portal, widget, invite landing) belong to the guild API:
    // they may use its services in-process, and never the dashboard's code.
    files: ["app/(provider)/**"],
    rules: { "no-restricted-imports": restrict(NO_DASHBOARD) },
  },
  {
    // A typed HTTP client for any guild API: no database, no dashboard, no built-in API.
    files: ["lib/api-client/**"],
    rules: {
      "no-restricted-imports": restrict(NO_UI, NO_GUILD_API, NO_DASHBOARD, [
        {
          group: ["@/lib/db", "@/lib/db/*", "@/lib/generated", "@/lib/generated/*", "@prisma/*", "better-sqlite3"],
          message: "lib/api-client speaks HTTP only; it never touches a database.",
        },
      ]),
    },
  },
  {
    // The service: no Next, no dashboard, no HTTP client of itself.
    files: ["lib/guild-api/**"],
    rules: {
      "no-restricted-imports": restrict(NO_UI, NO_DASHBOARD, [
        { group: ["@/lib/api-client", "@/lib/api-client/*"], message: "The guild API does not call itself over HTTP." },
        { group: ["next", "next/*", "next-auth", "next-auth/*"], message: "The guild API runs outside Next." },
      ]),
    },
  },
  {
    // Pure Discord knowledge shared by both sides: no other lib folder, no database, no I/O.
    files: ["lib/discord/**"],
    rules: {
      "no-restricted-imports": restrict(NO_UI, [
        {
          regex: "^@/lib/(?!discord/)",
          message: "lib/discord imports nothing from other lib folders: both sides import it, not the reverse.",
        },
        { group: ["../*"], message: "lib/discord imports nothing from other lib folders." },
        {
          group: ["node:*", "fs", "net", "http", "https", "child_process", "better-sqlite3", "@prisma/*"],
          message: "lib/discord is pure: no I/O.",
        },
      ]),
    },
  },
  {
    // The sample Activity and its token exchange reach Guildhall as any Activity would: over HTTP, never through
    // either side's code.
    files: ["app/activity/**", "app/api/token/**", "lib/activity/**"],
    rules: { "no-restricted-imports": restrict(NO_UI, NO_GUILD_API, NO_DASHBOARD, PRISMA_TYPES_ONLY) },
  },
  {
    // Infrastructure both sides stand on (the database path and migrations, security headers and safe redirects):
    // it knows neither side.
    files: ["lib/db/**", "lib/security/**"],
    rules: { "no-restricted-imports": restrict(NO_UI, NO_GUILD_API, NO_DASHBOARD) },
  },
  {
    files: ["**/*.{ts,tsx,js,mjs,cjs}"],
    ignores: ["lib/guild-api/store/**", "lib/seed/**", "scripts/**", "tests/**", "bench/**"],
    rules: { "no-restricted-syntax": ["error", ...sqlOutsideStore, ...ONE_ASYNC_LOCAL_STORAGE] },
  },
  {
    files: ["lib/guild-api/store/**", "lib/seed/**"],
    rules: { "no-restricted-syntax": ["error", ...ONE_ASYNC_LOCAL_STORAGE] },
  },
  {
    files: ["app/(dashboard)/**", "components/dashboard/**", "components/data-table/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        ...sqlOutsideStore,
        ...ONE_ASYNC_LOCAL_STORAGE,
        ...DASHBOARD_LINKS_SAY_PREFETCH,
      ],
    },
  },
  {
    // The store is asynchronous (lib/guild-api/store/driver.ts): a store call not awaited runs outside the transaction
    // it was meant for, or fails unseen, and a promise in a condition is always true. Typed rules catch all three.
    files: [
      "lib/guild-api/**/*.ts",
      "lib/seed/**/*.ts",
      "lib/server/**/*.ts",
      "app/(provider)/**/*.{ts,tsx}",
      "scripts/**/*.ts",
      "bench/**/*.ts",
      "tests/**/*.ts",
    ],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
    },
  },
];

export default config;
