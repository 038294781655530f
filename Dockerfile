# Guildhall's production image (docs/operations.md#the-image), in three stages:
#   build    every dependency, then `next build`;
#   deps     the production dependencies alone (better-sqlite3 compiled here when no prebuilt binary fits);
#   runtime  Debian's slim Node image with those node_modules, the build (without its cache) and the TypeScript the
#            server runs through tsx, as the unprivileged `node` user.
# No Docker engine runs in CI: scripts/image-steps.ts reads this file and performs its stages in folders (a clean
# export of the commit, the same installs, build and copies, the server started as an unprivileged user). So RUN
# commands work inside WORKDIR /app with relative paths, and the runtime stage only copies, sets and describes
# (its one RUN installs Debian packages, which that script leaves to the machine).

FROM node:20-bookworm AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
# npm ci's postinstall (npm run db:generate) loads prisma.config.ts, which imports lib/db, and derives the PostgreSQL
# schema with scripts/postgresql-schema.ts: those first, so the install is cached until they or the lockfile change.
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma ./prisma
COPY lib/db ./lib/db
COPY scripts/postgresql-schema.ts ./scripts/
RUN npm ci --no-audit --no-fund
COPY . .
# .next/cache is the build's own cache (webpack/turbopack, images): not needed to serve.
RUN npm run build && rm -rf .next/cache

FROM node:20-bookworm AS deps
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma ./prisma
COPY lib/db ./lib/db
COPY scripts/postgresql-schema.ts ./scripts/
# The full Debian image has python3, make and g++ for better-sqlite3's build from source; the slim runtime gets the
# compiled module (same Debian release, same glibc). The two folders the server writes, given to its user below:
# .data (the SQLite database and the secrets kept beside a database; prisma.config.ts has made it already) and
# .next/cache (Next's image-optimization cache).
RUN npm ci --omit=dev --no-audit --no-fund && mkdir -p .data .next/cache

FROM node:20-bookworm-slim AS runtime
# pg_dump and pg_restore for `npm run backup` on PostgreSQL (Debian bookworm's 15, the server version compose runs):
# about 45 MB installed by Debian's package sizes (the client 8.6 MB; perl, which Debian's wrappers of the tools need;
# libpq's OpenSSL, Kerberos and LDAP libraries). Remove this RUN for an image that only ever uses SQLite.
RUN apt-get update -qq \
  && apt-get install -y -qq --no-install-recommends postgresql-client \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 HOST=0.0.0.0 PORT=3000
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/.next ./.next
# The server runs its TypeScript through tsx: server.ts, lib/ (with the Prisma client generated into lib/generated),
# tsconfig.json for the @/ imports, next.config.mjs (read by Next when it starts), and for the npm scripts that run
# in a container (seed, backup, restore, db:copy) package.json, scripts/, prisma/ and prisma.config.ts.
COPY --from=build /app/package.json /app/tsconfig.json /app/next.config.mjs /app/prisma.config.ts /app/server.ts ./
COPY --from=build /app/lib ./lib
COPY --from=build /app/scripts ./scripts
COPY --from=build /app/prisma ./prisma
# The app's icons, which the server answers by their hashed URLs with a year's caching (lib/server/app-icons.ts).
COPY --from=build /app/app/favicon.ico /app/app/icon.svg /app/app/apple-icon.png ./app/
COPY --from=deps --chown=node:node /app/.data ./.data
COPY --from=deps --chown=node:node /app/.next/cache ./.next/cache
# Everything else stays root's and read-only to the server.
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node itself as the container's process, with tsx's loader (as npm start runs it): docker stop's SIGTERM reaches the
# server with nothing in between, and it shuts down gracefully (SHUTDOWN_GRACE_MS). The V8 flag is npm start's too
# (lib/server/node-flags.ts says why).
CMD ["node", "--initial-old-space-size=256", "--import", "tsx", "server.ts"]
