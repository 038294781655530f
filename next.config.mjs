// Next.js serves the dashboard, the OAuth2 consent page, next-auth and the Activity.
// The guild API is not here: server.ts sends /api/v10 and /api/oauth2 to its own router.
import { pageHeaderRules } from "./lib/security/headers.mjs";

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  serverExternalPackages: [
    "better-sqlite3",
    "@prisma/client",
    "@prisma/adapter-better-sqlite3",
    "@prisma/adapter-pg",
    "pg",
    // One copy of each in the process, the server's: the metrics registry and the logger the server reads and writes.
    "prom-client",
    "pino",
  ],
  // Security headers and who may frame which page (lib/security/headers.mjs). The Activity's frame-ancestors
  // come from the environment at run time, so lib/server adds them; this table is fixed at build time.
  async headers() {
    return pageHeaderRules();
  },
};

export default nextConfig;
