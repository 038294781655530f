// Integration harness: each test file gets its own copy of the seeded database and its own guild API
// server (bare node:http, no Next) on a free port, and talks to it over real HTTP, e.g. with @discordjs/rest.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, inject } from "vitest";
import { REST } from "@discordjs/rest";
import Database from "better-sqlite3";
import pg from "pg";
import type { RateLimitOptions } from "@/lib/guild-api/rate-limits";
import type { GatewayOptions } from "@/lib/guild-api/gateway";

/** The REST methods the tests call. */
export type RestClient = Pick<REST, "get" | "post" | "put" | "patch" | "delete">;

export interface TestServer {
  baseUrl: string;
  /** ids of the demo world, by name */
  world: DemoWorldIds;
  botToken: string;
  clientSecret: string;
  /** A fresh OAuth2 access token of the demo application for a seeded user. */
  tokenFor(username: string, scopes?: readonly string[]): Promise<string>;
  /**
   * @discordjs/rest client as `username` (Bearer) or as the demo bot ("bot"). Its token is issued on the first request
   * (issuing writes a row, asynchronously), so tests can chain `rest(as).get(…)`.
   */
  rest(as: string): RestClient;
  /** Raw fetch against /api/v10 with an Authorization header for `as` (a username, "bot", or null for none). */
  api(
    as: string | null,
    method: string,
    route: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Response>;
  close(): Promise<void>;
}

export interface DemoWorldIds {
  applicationId: string;
  botUserId: string;
  guildId: string;
  sideGuildId: string;
  users: Record<"owner" | "admin" | "mod" | "helper" | "member" | "outsider", string>;
  roles: Record<"everyone" | "admin" | "bot" | "moderator" | "helper" | "regular" | "member", string>;
  channels: Record<string, string>;
}

/** The demo world's role names in position order, lowest first, as the seed makes them. */
export const DEMO_ROLE_NAMES = ["@everyone", "Member", "Regular", "Helper", "Moderator", "Guildhall Demo", "Admin"];

export interface TestServerOptions {
  /**
   * Discord's rate limits are on in test servers, as `npm start` has them: every test then also checks that the
   * limits and their headers leave ordinary use alone (`rest()` waits on 429s as @discordjs/rest does, and `api()`
   * honours Retry-After like any well-behaved client). Files that hammer the strictest buckets on purpose (hundreds
   * of bulk bans, prunes, reorders, uploads or token requests to test the operations themselves) pass `{ enabled: false }`: the limits have their own
   * tests in tests/security/rate-limits.test.ts.
   */
  rateLimits?: Partial<RateLimitOptions>;
  /** Gateway limits and timings (tests that identify many times loosen the identify limits). */
  gateway?: Partial<GatewayOptions>;
  /** The API on Discord's terms (DISCORD_STRICT=1). */
  strict?: boolean;
}

let fileDatabase: (() => import("better-sqlite3").Database) | undefined;
let clonedDatabases = 0;

/** One statement as the PostgreSQL cluster's superuser (creating and dropping a file's database). */
async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(text);
  } finally {
    await admin.end();
  }
}

/**
 * The database of this file's harness server, for seeding and reading back what a request wrote. Usable once
 * startTestServer has run (in tests and in hooks after it), because the store opens the file startTestServer copied.
 */
export function serverDb(): import("better-sqlite3").Database {
  if (!fileDatabase) throw new Error("serverDb() before startTestServer()");
  return fileDatabase();
}

/**
 * This file's server: started before its tests, closed after them. It stands for the server at once (tests written
 * at the top level read it only once the hooks have run), so a file needs no `let server` and hooks of its own.
 */
export function testServerForFile(options: TestServerOptions = {}): TestServer {
  let started: TestServer | undefined;
  beforeAll(async () => {
    started = await startTestServer(options);
  });
  afterAll(() => started?.close());
  return new Proxy({} as TestServer, {
    get(_target, key) {
      if (!started) throw new Error("The test server is read before its beforeAll hook ran.");
      return Reflect.get(started, key);
    },
  });
}

/** How long `api()` sits out 429s in all before it hands one to the test. */
const MAX_RATE_LIMIT_WAIT_MS = 15_000;

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "guildhall-it-file-"));
  const template = inject("templateDatabase");
  const postgres = inject("integrationPostgres");
  let dropDatabase = async () => {};
  if (postgres) {
    // A clone of the seeded PostgreSQL template; the secrets kept beside a database go into this file's folder.
    const name = `it_${process.pid}_${++clonedDatabases}`;
    await adminQuery(postgres.adminUrl, `CREATE DATABASE "${name}" TEMPLATE "${postgres.template}"`);
    const url = new URL(postgres.adminUrl);
    url.pathname = `/${name}`;
    process.env.DATABASE_URL = url.toString();
    process.env.GUILDHALL_SECRETS_DIR = dir;
    const { secretsPathBase } = await import("@/lib/db/database-url");
    fs.copyFileSync(`${template}.secrets.json`, `${secretsPathBase()}.secrets.json`);
    dropDatabase = () => adminQuery(postgres.adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } else {
    const file = path.join(dir, "test.db");
    fs.copyFileSync(template, file);
    fs.copyFileSync(`${template}.secrets.json`, `${file}.secrets.json`);
    process.env.DATABASE_URL = `file:${file}`;
  }

  const { startGuildhallServer } = await import("@/lib/server/create-server");
  const { db, sql, closeDatabase } = await import("@/lib/guild-api/store/db");
  fileDatabase = db;
  const { readDemoSecrets } = await import("@/lib/seed/demo-secrets");
  const { issueAccessToken } = await import("@/lib/guild-api/services/access-tokens");
  const { DEVELOPMENT_TOKEN_SCOPES } = await import("@/lib/guild-api/services/oauth2");
  const server = await startGuildhallServer({
    port: 0,
    host: "127.0.0.1",
    withNext: false,
    rateLimits: options.rateLimits,
    gateway: options.gateway,
    strict: options.strict,
  });
  const secrets = readDemoSecrets();
  if (!secrets) throw new Error("template database has no demo secrets");

  // The template holds the same rows the server's database starts from.
  const templateDb = new Database(template, { readonly: true });
  templateDb.defaultSafeIntegers(true);
  const world = readWorld(templateDb);
  templateDb.close();
  const tokens = new Map<string, string>();
  // The default is `npm run token`'s: what the dashboard's sign-in grants (the management scope included) and more.
  const tokenFor = async (username: string, scopes: readonly string[] = DEVELOPMENT_TOKEN_SCOPES) => {
    const userId = await sql.value<bigint>("SELECT id FROM users WHERE username = ?", username);
    if (userId === undefined) throw new Error(`no user ${username}`);
    return (await issueAccessToken(BigInt(secrets.applicationId), userId, scopes)).access_token;
  };
  const authFor = async (as: string) => {
    if (as === "bot") return `Bot ${secrets.botToken}`;
    let token = tokens.get(as);
    if (!token) tokens.set(as, (token = await tokenFor(as)));
    return `Bearer ${token}`;
  };

  return {
    baseUrl: server.url,
    world,
    botToken: secrets.botToken,
    clientSecret: secrets.clientSecret,
    tokenFor,
    rest(as) {
      const bot = as === "bot";
      const client = authFor(as).then((auth) =>
        new REST({
          api: `${server.url}/api`,
          authPrefix: bot ? "Bot" : "Bearer",
          retries: 0,
          timeout: 10_000,
        }).setToken(auth.split(" ")[1]),
      );
      // A client never used must not leave a rejected promise unobserved; each request still sees the failure.
      client.catch(() => undefined);
      return {
        get: async (route, options) => (await client).get(route, options),
        post: async (route, options) => (await client).post(route, options),
        put: async (route, options) => (await client).put(route, options),
        patch: async (route, options) => (await client).patch(route, options),
        delete: async (route, options) => (await client).delete(route, options),
      };
    },
    async api(as, method, route, body, headers = {}) {
      const init: RequestInit = { method, headers: { ...headers } };
      if (as) (init.headers as Record<string, string>).authorization = await authFor(as);
      if (body !== undefined) {
        init.body =
          typeof body === "string" || body instanceof FormData ? (body as string | FormData) : JSON.stringify(body);
        if (!(body instanceof FormData) && typeof body !== "string")
          (init.headers as Record<string, string>)["content-type"] = "application/json";
      }
      // A 429 means the request was not processed: wait as told and send it again.
      for (let waited = 0; ;) {
        const response = await fetch(`${server.url}/api/v10${route}`, init);
        if (response.status !== 429) return response;
        const { retry_after: retryAfter } = (await response.clone().json()) as { retry_after: number };
        if (waited + retryAfter * 1000 > MAX_RATE_LIMIT_WAIT_MS) return response;
        await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
        waited += retryAfter * 1000;
      }
    },
    async close() {
      await server.close();
      closeDatabase();
      await dropDatabase();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function readWorld(database: import("better-sqlite3").Database): DemoWorldIds {
  const one = (query: string, ...args: unknown[]) =>
    String((database.prepare(query).get(...args) as { id: bigint }).id);
  // The dashboard's application (the seed also makes the sample Activity's own).
  const app = database.prepare("SELECT id, bot_user_id FROM applications WHERE name = 'Guildhall Demo'").get() as {
    id: bigint;
    bot_user_id: bigint;
  };
  const guildId = one("SELECT id FROM guilds WHERE name = 'Guildhall HQ'");
  const users = Object.fromEntries(
    ["owner", "admin", "mod", "helper", "member", "outsider"].map((name) => [
      name,
      one("SELECT id FROM users WHERE username = ?", name),
    ]),
  ) as DemoWorldIds["users"];
  const role = (name: string) => one("SELECT id FROM roles WHERE guild_id = ? AND name = ?", BigInt(guildId), name);
  const channels = Object.fromEntries(
    (
      database
        .prepare("SELECT id, name FROM channels WHERE guild_id = ? AND type NOT IN (10, 11, 12)")
        .all(BigInt(guildId)) as Array<{ id: bigint; name: string }>
    ).map((c) => [c.name, String(c.id)]),
  );
  return {
    applicationId: String(app.id),
    botUserId: String(app.bot_user_id),
    guildId,
    sideGuildId: one("SELECT id FROM guilds WHERE name = 'Side Project'"),
    users,
    roles: {
      everyone: guildId,
      admin: role("Admin"),
      bot: role("Guildhall Demo"),
      moderator: role("Moderator"),
      helper: role("Helper"),
      regular: role("Regular"),
      member: role("Member"),
    },
    channels,
  };
}

/**
 * Adds `count` users nobody has met (no guild, no grant) to the running server's database, their ids minted one
 * millisecond apart from `since` (epoch ms), their usernames `<prefix>_<n>`: the API bans and looks up only users
 * that exist, and the demo world has few free non-members. Answers their ids, oldest first.
 */
export async function insertStrangers(count: number, since: number, prefix: string): Promise<string[]> {
  const { snowflakeAt } = await import("@/lib/discord/snowflake");
  const { sql, transaction } = await import("@/lib/guild-api/store/db");
  const base = snowflakeAt(since);
  const ids = Array.from({ length: count }, (_, i) => String(base + BigInt(i + 1) * 4_194_304n));
  await transaction(async () => {
    for (const [i, id] of ids.entries())
      await sql.run(
        "INSERT INTO users (id, username, created_at) VALUES (?, ?, ?)",
        BigInt(id),
        `${prefix}_${i}`,
        BigInt(Date.now()),
      );
  });
  return ids;
}
