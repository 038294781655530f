import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

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
];

export default config;
