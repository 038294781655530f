import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

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
  "TaggedTemplateExpression[tag.name='sql']",
  "CallExpression[callee.property.name=/^(prepare|exec|pragma)$/][arguments.0.type=/^(Literal|TemplateLiteral)$/]",
  "CallExpression[callee.property.name=/^(prepare|exec|pragma|transaction)$/][callee.object.callee.name='db']",
  `Literal[value=/${SQL_TEXT}/]`,
  `TemplateElement[value.raw=/${SQL_TEXT}/]`,
  // A template that starts a statement and interpolates the rest (`SELECT ${columns} FROM …`).
  "TemplateLiteral > TemplateElement:first-child[value.raw=/^\\s*(SELECT|INSERT|REPLACE|UPDATE|DELETE)\\s/]",
].map((selector) => ({ selector, message: SQL_ONLY_IN_STORE }));

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
  {
    files: ["**/*.{ts,tsx,js,mjs,cjs}"],
    ignores: ["lib/guild-api/store/**", "lib/seed/**", "scripts/**", "tests/**", "bench/**"],
    rules: { "no-restricted-syntax": ["error", ...sqlOutsideStore] },
  },
];

export default config;
