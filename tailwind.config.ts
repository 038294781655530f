// Tailwind CSS 4 reads this through `@config` in app/globals.css: the design tokens of Guildhall.
import type { Config } from "tailwindcss";

const config: Config = {
  content: ["./app/**/*.{ts,tsx}", "./components/**/*.{ts,tsx}"],
  darkMode: "class",
  theme: {
    extend: {
      colors: {
        blurple: { DEFAULT: "#5865F2", dark: "#4752C4", light: "#949CF7" },
        surface: { DEFAULT: "var(--surface)", raised: "var(--surface-raised)", sunken: "var(--surface-sunken)" },
        ink: { DEFAULT: "var(--ink)", muted: "var(--ink-muted)" },
        line: "var(--line)",
        danger: { DEFAULT: "#DA373C", soft: "#F8D7D8" },
        success: "#23A55A",
        warning: "#F0B232",
        // Readable on the tinted status backgrounds in both themes (app/globals.css).
        "success-ink": "var(--success-ink)",
        "danger-ink": "var(--danger-ink)",
        "warning-ink": "var(--warning-ink)",
        "blurple-ink": "var(--blurple-ink)",
      },
      fontFamily: {
        sans: [
          "ui-sans-serif",
          "system-ui",
          "-apple-system",
          "Segoe UI",
          "Roboto",
          "Helvetica Neue",
          "Arial",
          "sans-serif",
        ],
      },
    },
  },
};

export default config;
