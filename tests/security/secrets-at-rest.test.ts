// Finding 9 (secrets at rest): the dashboard's stored OAuth2 tokens are AES-256-GCM ciphertext, the database and
// its WAL/SHM files are 0600 however the process's umask is set, each demo user has a salt of their own, and a
// rotated refresh token presented again revokes every pair of its grant.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestServer, type TestServer } from "../integration/harness";
import { secretsPathBase } from "@/lib/db/database-url";
import { sql } from "@/lib/guild-api/store/db";

let server: TestServer;
let prisma: typeof import("@/lib/dashboard/db").prisma;
let encryption: typeof import("@/lib/dashboard/auth/token-encryption");
const previousEnv = { GUILD_API_URL: process.env.GUILD_API_URL, NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET };

beforeAll(async () => {
  server = await startTestServer();
  // No NEXTAUTH_SECRET: the key comes from the secret file created beside the database on first use.
  delete process.env.NEXTAUTH_SECRET;
  process.env.GUILD_API_URL = `${server.baseUrl}/api`;
  ({ prisma } = await import("@/lib/dashboard/db"));
  encryption = await import("@/lib/dashboard/auth/token-encryption");
});
afterAll(async () => {
  for (const [name, value] of Object.entries(previousEnv))
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  await prisma?.$disconnect();
  await server?.close();
});

const mode = (file: string) => fs.statSync(file).mode & 0o777;
const rawAccount = async (providerAccountId: string) =>
  (await sql.get(
    'SELECT access_token, refresh_token FROM dashboard_accounts WHERE "providerAccountId" = ?',
    providerAccountId,
  )) as { access_token: string | null; refresh_token: string | null };

describe("the dashboard's stored tokens", () => {
  test("are written encrypted by next-auth's adapter and read back by the session", async () => {
    const { dashboardAdapter } = await import("@/lib/dashboard/auth/adapter");
    const adapter = dashboardAdapter(prisma);
    const user = await adapter.createUser!({ name: "Mod", email: "", emailVerified: null, image: null });
    const accessToken = await server.tokenFor("mod");
    await adapter.linkAccount!({
      userId: user.id,
      type: "oauth",
      provider: "guildhall",
      providerAccountId: server.world.users.mod,
      access_token: accessToken,
      refresh_token: "refresh-secret-value",
      token_type: "bearer",
    });
    const stored = await rawAccount(server.world.users.mod);
    expect(stored.access_token).toMatch(/^enc:v1:[\w-]+$/);
    expect(stored.access_token).not.toContain(accessToken);
    expect(stored.refresh_token).not.toContain("refresh-secret-value");
    expect(encryption.decryptToken(stored.access_token, "access_token")).toBe(accessToken);
    expect(encryption.decryptToken(stored.refresh_token, "refresh_token")).toBe("refresh-secret-value");
  });

  test("a refresh stores the new pair encrypted and hands out the plain access token", async () => {
    const { createDashboardSession } = await import("@/lib/dashboard/auth/test-session");
    const { accessTokenFor } = await import("@/lib/dashboard/auth/tokens");
    const { issueAccessToken } = await import("@/lib/guild-api/services/access-tokens");
    const grant = await issueAccessToken(BigInt(server.world.applicationId), BigInt(server.world.users.helper), [
      "identify",
      "guilds",
    ]);
    await createDashboardSession(prisma, {
      userId: server.world.users.helper,
      name: "Helper",
      accessToken: grant.access_token,
      refreshToken: grant.refresh_token,
      expiresAt: Math.floor(Date.now() / 1000) - 60,
    });
    const row = await prisma.dashboardAccount.findFirstOrThrow({
      where: { providerAccountId: server.world.users.helper },
    });
    expect(row.refresh_token).toMatch(/^enc:v1:/);
    const fresh = await accessTokenFor({
      id: row.id,
      providerAccountId: row.providerAccountId,
      access_token: encryption.decryptToken(row.access_token, "access_token"),
      refresh_token: encryption.decryptToken(row.refresh_token, "refresh_token"),
      expires_at: row.expires_at,
    });
    expect(fresh).not.toBe(grant.access_token);
    const me = await fetch(`${server.baseUrl}/api/v10/users/@me`, { headers: { authorization: `Bearer ${fresh}` } });
    expect(me.status).toBe(200);
    const stored = await rawAccount(server.world.users.helper);
    expect(stored.access_token).toMatch(/^enc:v1:/);
    expect(stored.access_token).not.toContain(fresh);
    expect(encryption.decryptToken(stored.access_token, "access_token")).toBe(fresh);
  });

  test("AES-256-GCM: a fresh IV each time, tampering and column swaps are refused, the key file is 0600", () => {
    const a = encryption.encryptToken("same-token", "access_token")!;
    const b = encryption.encryptToken("same-token", "access_token")!;
    expect(a).not.toBe(b);
    const raw = Buffer.from(a.slice("enc:v1:".length), "base64url");
    expect(raw.length).toBe(12 + 16 + "same-token".length);
    raw[raw.length - 1] ^= 1;
    expect(encryption.decryptToken(`enc:v1:${raw.toString("base64url")}`, "access_token")).toBeNull();
    expect(encryption.decryptToken(a, "refresh_token")).toBeNull();
    expect(encryption.decryptToken(a, "access_token")).toBe("same-token");
    // Tokens stored before encryption are still read (and encrypted at their next write).
    expect(encryption.decryptToken("legacy-plain", "access_token")).toBe("legacy-plain");
    // Beside the SQLite file, or in the secrets folder named after the PostgreSQL database.
    const keyFile = `${secretsPathBase()}.nextauth-secret`;
    expect(mode(keyFile)).toBe(0o600);
  });

  test("the key follows NEXTAUTH_SECRET when one is set", () => {
    const stored = encryption.encryptToken("t", "access_token");
    process.env.NEXTAUTH_SECRET = "another-secret-entirely";
    try {
      expect(encryption.decryptToken(stored, "access_token")).toBeNull();
      expect(encryption.decryptToken(encryption.encryptToken("t", "access_token"), "access_token")).toBe("t");
    } finally {
      delete process.env.NEXTAUTH_SECRET;
    }
  });
});

describe("database files", () => {
  test("a new database and its -wal/-shm are created 0600 under a permissive umask; 0644 files are tightened", async () => {
    const { openDatabase } = await import("@/lib/guild-api/store/db");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "guildhall-modes-"));
    const previousUmask = process.umask(0o022);
    try {
      const file = path.join(dir, "fresh.db");
      const fresh = openDatabase(file);
      fresh.exec("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1);");
      for (const suffix of ["", "-wal", "-shm"]) expect(mode(file + suffix), suffix || "db").toBe(0o600);
      fresh.close();

      const old = path.join(dir, "old.db");
      fs.writeFileSync(old, "", { mode: 0o644 });
      fs.writeFileSync(`${old}.secrets.json`, "{}", { mode: 0o644 });
      expect(mode(old)).toBe(0o644);
      openDatabase(old).close();
      expect(mode(old)).toBe(0o600);
      expect(mode(`${old}.secrets.json`)).toBe(0o600);
    } finally {
      process.umask(previousUmask);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test("migrating a missing database creates it 0600 (Prisma would make it world-readable)", async () => {
    const { migrateDatabase } = await import("@/lib/db/migrate");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "guildhall-migrate-"));
    const previousUmask = process.umask(0o022);
    try {
      const file = path.join(dir, "nested", "new.db");
      migrateDatabase(`file:${file}`);
      expect(mode(file)).toBe(0o600);
      expect(mode(path.dirname(file))).toBe(0o700);
    } finally {
      process.umask(previousUmask);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

test("every demo user has a salt of their own", async () => {
  const rows = (await sql.all(
    "SELECT password_hash FROM users WHERE bot = FALSE AND password_hash IS NOT NULL",
  )) as Array<{
    password_hash: string;
  }>;
  expect(rows.length).toBeGreaterThanOrEqual(6);
  const salts = new Set(rows.map((row) => row.password_hash.split(":")[0]));
  expect(salts.size).toBe(rows.length);
});

describe("refresh token replay", () => {
  const form = (fields: Record<string, string>) =>
    fetch(`${server.baseUrl}/api/v10/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        client_id: server.world.applicationId,
        client_secret: server.clientSecret,
        ...fields,
      }),
    });
  const refresh = async (refreshToken: string) => form({ grant_type: "refresh_token", refresh_token: refreshToken });
  const me = (accessToken: string) =>
    fetch(`${server.baseUrl}/api/v10/users/@me`, { headers: { authorization: `Bearer ${accessToken}` } });
  interface Pair {
    access_token: string;
    refresh_token: string;
  }

  async function newGrant(): Promise<Pair> {
    const { createAuthorizationCode } = await import("@/lib/guild-api/services/oauth2");
    const code = await createAuthorizationCode({
      applicationId: BigInt(server.world.applicationId),
      userId: BigInt(server.world.users.member),
      scopes: ["identify", "guilds"],
      redirectUri: null,
    });
    const response = await form({ grant_type: "authorization_code", code });
    expect(response.status).toBe(200);
    return (await response.json()) as Pair;
  }

  test("replaying a rotated refresh token revokes the whole family, and only that family", async () => {
    const first = await newGrant();
    const unrelated = await newGrant();
    const second = (await (await refresh(first.refresh_token)).json()) as Pair;
    const third = (await (await refresh(second.refresh_token)).json()) as Pair;
    expect((await me(third.access_token)).status).toBe(200);

    const replay = await refresh(first.refresh_token);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: "invalid_grant" });
    // The newest pair of that grant is dead, access and refresh alike.
    expect((await me(third.access_token)).status).toBe(401);
    expect(await (await refresh(third.refresh_token)).json()).toMatchObject({ error: "invalid_grant" });
    // Another grant of the same user and client is untouched.
    expect((await me(unrelated.access_token)).status).toBe(200);
    expect((await refresh(unrelated.refresh_token)).status).toBe(200);
  });

  test("an unknown refresh token revokes nothing", async () => {
    const grant = await newGrant();
    expect(await (await refresh("not-a-refresh-token")).json()).toMatchObject({ error: "invalid_grant" });
    expect((await me(grant.access_token)).status).toBe(200);
  });
});
