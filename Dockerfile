# Guildhall's image for docker-compose.yml: dependencies installed and the Next.js app built once, at image build;
# each container then serves with `tsx server.ts` (the database is prepared by compose's one-shot `prepare` service).
# The full Debian image, not -slim: better-sqlite3 compiles from source when no prebuilt binary fits.
FROM node:20-bookworm
# pg_dump and pg_restore for `npm run backup` on PostgreSQL (Debian bookworm's 15, the server version compose runs).
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends postgresql-client && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma ./prisma
# npm ci's postinstall (npm run db:generate) loads prisma.config.ts, which imports lib/db, and derives the PostgreSQL
# schema with scripts/postgresql-schema.ts.
COPY lib/db ./lib/db
COPY scripts/postgresql-schema.ts ./scripts/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
EXPOSE 3000
CMD ["node_modules/.bin/tsx", "server.ts"]
