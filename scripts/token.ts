// npm run token -- <username> [scopes…]   prints an OAuth2 access token of the demo application for a seeded user
// npm run token -- --bot                   prints the demo bot token
// Development only: refuses to run when NODE_ENV=production.
import { closeDatabase, sql } from "@/lib/guild-api/store/db";
import { readDemoSecrets } from "@/lib/seed/demo-secrets";

async function main(): Promise<void> {
  if (process.env.NODE_ENV === "production") {
    console.error("npm run token is a development tool and refuses to run with NODE_ENV=production.");
    process.exit(1);
  }
  const args = process.argv.slice(2);
  const secrets = readDemoSecrets();
  if (!secrets) {
    console.error("No demo world found: run `npm run seed` (or `npm start`) first.");
    process.exit(1);
  }
  if (args[0] === "--bot") {
    console.log(secrets.botToken);
    return;
  }
  const [username, ...scopes] = args;
  if (!username) {
    console.error("usage: npm run token -- <username> [scopes…] | --bot");
    process.exit(2);
  }
  // Through the store, so it reads whichever database DATABASE_URL names (SQLite file or PostgreSQL).
  const user = (await sql.get("SELECT id FROM users WHERE username = ? AND bot = FALSE", username)) as
    { id: bigint } | undefined;
  if (!user) {
    closeDatabase();
    console.error(`No user named "${username}".`);
    process.exit(1);
  }
  const { issueAccessToken } = await import("@/lib/guild-api/services/access-tokens");
  const { DEVELOPMENT_TOKEN_SCOPES } = await import("@/lib/guild-api/services/oauth2");
  const tokens = await issueAccessToken(
    BigInt(secrets.applicationId),
    user.id,
    scopes.length ? scopes : [...DEVELOPMENT_TOKEN_SCOPES],
  );
  // The PostgreSQL connection would keep the process alive.
  closeDatabase();
  console.log(tokens.access_token);
}

void main();
