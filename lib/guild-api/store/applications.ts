// The applications table (the built-in Developer Portal's apps: OAuth2 clients, bots, Activities) and
// application_commands. Secrets (bot token, client secret) are stored only as SHA-256 hashes.
import { sql } from "./db";
import { USER_COLUMNS_OF_U, type UserRow } from "./users";

export interface ApplicationRow {
  id: bigint;
  name: string;
  description: string;
  icon: string | null;
  owner_id: bigint;
  bot_user_id: bigint | null;
  bot_token_hash: string | null;
  client_secret_hash: string;
  flags: bigint;
  redirect_uris: string;
  url_mappings: string;
  activities_enabled: bigint;
  integration_types: string;
  bot_public: bigint;
  /** 1: authorization requests need a PKCE (S256) code_challenge, and codes without one are not redeemed. */
  require_pkce: bigint;
  created_at: bigint;
}

export async function findApplication(applicationId: bigint): Promise<ApplicationRow | undefined> {
  return (await sql.get("SELECT * FROM applications WHERE id = ?", applicationId)) as ApplicationRow | undefined;
}

/** The application whose bot token hashes to `tokenHash` (its id and bot user). */
export async function findApplicationByBotTokenHash(
  tokenHash: string,
): Promise<{ id: bigint; bot_user_id: bigint | null } | undefined> {
  return (await sql.get("SELECT id, bot_user_id FROM applications WHERE bot_token_hash = ?", tokenHash)) as
    { id: bigint; bot_user_id: bigint | null } | undefined;
}

export async function listApplicationsOwnedBy(userId: bigint): Promise<ApplicationRow[]> {
  return (await sql.all("SELECT * FROM applications WHERE owner_id = ? ORDER BY id", userId)) as ApplicationRow[];
}

/** The redirect URIs registered for the application (a JSON array in its row). */
export const redirectUrisOf = (app: Pick<ApplicationRow, "redirect_uris">): string[] =>
  JSON.parse(app.redirect_uris) as string[];

/** The application's stored flags (null: no such application). */
export async function findApplicationFlags(applicationId: bigint): Promise<bigint | undefined> {
  return (await sql.value("SELECT flags FROM applications WHERE id = ?", applicationId)) as bigint | undefined;
}

/** The application's bot user (none when the application has no bot). */
export async function findApplicationBotUser(applicationId: bigint): Promise<UserRow | undefined> {
  return (await sql.get(
    `SELECT ${USER_COLUMNS_OF_U} FROM applications a JOIN users u ON u.id = a.bot_user_id WHERE a.id = ?`,
    applicationId,
  )) as UserRow | undefined;
}

/** The columns the portal and Edit Current Application change, one at a time. */
type ApplicationSetting =
  | "description"
  | "flags"
  | "redirect_uris"
  | "url_mappings"
  | "activities_enabled"
  | "integration_types"
  | "bot_token_hash"
  | "client_secret_hash";
const SETTING_STATEMENTS: Record<ApplicationSetting, string> = {
  description: "UPDATE applications SET description = ? WHERE id = ?",
  flags: "UPDATE applications SET flags = ? WHERE id = ?",
  redirect_uris: "UPDATE applications SET redirect_uris = ? WHERE id = ?",
  url_mappings: "UPDATE applications SET url_mappings = ? WHERE id = ?",
  activities_enabled: "UPDATE applications SET activities_enabled = ? WHERE id = ?",
  integration_types: "UPDATE applications SET integration_types = ? WHERE id = ?",
  bot_token_hash: "UPDATE applications SET bot_token_hash = ? WHERE id = ?",
  client_secret_hash: "UPDATE applications SET client_secret_hash = ? WHERE id = ?",
};

export async function updateApplicationSetting<K extends ApplicationSetting>(
  applicationId: bigint,
  column: K,
  value: ApplicationRow[K] | number,
): Promise<void> {
  await sql.run(SETTING_STATEMENTS[column], value, applicationId);
}

// ── application_commands ──────────────────────────────────────────────────────────────────────────────────────

export interface ApplicationCommandRow {
  id: bigint;
  application_id: bigint;
  guild_id: bigint | null;
  type: bigint;
  name: string;
  description: string;
  handler: bigint | null;
  integration_types: string;
  contexts: string;
  version: bigint;
}

export async function findApplicationCommand(commandId: bigint): Promise<ApplicationCommandRow | undefined> {
  return (await sql.get("SELECT * FROM application_commands WHERE id = ?", commandId)) as
    ApplicationCommandRow | undefined;
}

/** The application's first global command of `type`. */
export async function findGlobalCommandOfType(
  applicationId: bigint,
  type: number,
): Promise<ApplicationCommandRow | undefined> {
  return (await sql.get(
    "SELECT * FROM application_commands WHERE application_id = ? AND guild_id IS NULL AND type = ? ORDER BY id LIMIT 1",
    applicationId,
    type,
  )) as ApplicationCommandRow | undefined;
}

export async function listGlobalCommands(applicationId: bigint): Promise<ApplicationCommandRow[]> {
  return (await sql.all(
    "SELECT * FROM application_commands WHERE application_id = ? AND guild_id IS NULL ORDER BY id",
    applicationId,
  )) as ApplicationCommandRow[];
}

/** A new global command (guild_id null). */
export async function insertGlobalCommand(
  command: Omit<ApplicationCommandRow, "guild_id" | "type" | "handler"> & {
    type: number;
    handler: number | null;
  },
): Promise<void> {
  await sql.run(
    `INSERT INTO application_commands (id, application_id, guild_id, type, name, description, handler, integration_types, contexts, version)
     VALUES (?, ?, NULL, ?, ?, ?, ?, ?, ?, ?)`,
    command.id,
    command.application_id,
    command.type,
    command.name,
    command.description,
    command.handler,
    command.integration_types,
    command.contexts,
    command.version,
  );
}

export async function updateCommandHandler(commandId: bigint, handler: number, version: bigint): Promise<void> {
  await sql.run("UPDATE application_commands SET handler = ?, version = ? WHERE id = ?", handler, version, commandId);
}

export async function deleteCommandsOfType(applicationId: bigint, type: number): Promise<void> {
  await sql.run("DELETE FROM application_commands WHERE application_id = ? AND type = ?", applicationId, type);
}
