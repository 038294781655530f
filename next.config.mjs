// Next.js serves the dashboard, the OAuth2 consent page, next-auth and the Activity.
// The guild API is not here: server.ts sends /api/v10 and /api/oauth2 to its own router.
/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  serverExternalPackages: ["better-sqlite3", "@prisma/client", "@prisma/adapter-better-sqlite3"],
  // The Activity is embedded by Discord (and by the host simulator in tests) in an iframe.
  async headers() {
    return [{ source: "/activity/:path*", headers: [{ key: "Content-Security-Policy", value: "frame-ancestors *" }] }];
  },
};

export default nextConfig;
