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
  created_at: bigint;
}

export function findApplication(applicationId: bigint): ApplicationRow | undefined {
  return sql("SELECT * FROM applications WHERE id = ?").get(applicationId) as ApplicationRow | undefined;
}

/** The application whose bot token hashes to `tokenHash` (its id and bot user). */
export function findApplicationByBotTokenHash(
  tokenHash: string,
): { id: bigint; bot_user_id: bigint | null } | undefined {
  return sql("SELECT id, bot_user_id FROM applications WHERE bot_token_hash = ?").get(tokenHash) as
    { id: bigint; bot_user_id: bigint | null } | undefined;
}

export function listApplicationsOwnedBy(userId: bigint): ApplicationRow[] {
  return sql("SELECT * FROM applications WHERE owner_id = ? ORDER BY id").all(userId) as ApplicationRow[];
}

/** The redirect URIs registered for the application (a JSON array in its row). */
export const redirectUrisOf = (app: Pick<ApplicationRow, "redirect_uris">): string[] =>
  JSON.parse(app.redirect_uris) as string[];

/** The application's stored flags (null: no such application). */
export function findApplicationFlags(applicationId: bigint): bigint | undefined {
  return sql("SELECT flags FROM applications WHERE id = ?").pluck().get(applicationId) as bigint | undefined;
}

/** The application's bot user (none when the application has no bot). */
export function findApplicationBotUser(applicationId: bigint): UserRow | undefined {
  return sql(`SELECT ${USER_COLUMNS_OF_U} FROM applications a JOIN users u ON u.id = a.bot_user_id WHERE a.id = ?`).get(
    applicationId,
  ) as UserRow | undefined;
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

export function updateApplicationSetting<K extends ApplicationSetting>(
  applicationId: bigint,
  column: K,
  value: ApplicationRow[K] | number,
): void {
  sql(SETTING_STATEMENTS[column]).run(value, applicationId);
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

export function findApplicationCommand(commandId: bigint): ApplicationCommandRow | undefined {
  return sql("SELECT * FROM application_commands WHERE id = ?").get(commandId) as ApplicationCommandRow | undefined;
}

/** The application's first global command of `type`. */
export function findGlobalCommandOfType(applicationId: bigint, type: number): ApplicationCommandRow | undefined {
  return sql(
    "SELECT * FROM application_commands WHERE application_id = ? AND guild_id IS NULL AND type = ? ORDER BY id LIMIT 1",
  ).get(applicationId, type) as ApplicationCommandRow | undefined;
}

export function listGlobalCommands(applicationId: bigint): ApplicationCommandRow[] {
  return sql("SELECT * FROM application_commands WHERE application_id = ? AND guild_id IS NULL ORDER BY id").all(
    applicationId,
  ) as ApplicationCommandRow[];
}

/** A new global command (guild_id null). */
export function insertGlobalCommand(
  command: Omit<ApplicationCommandRow, "guild_id" | "type" | "handler"> & {
    type: number;
    handler: number | null;
  },
): void {
  sql(
    `INSERT INTO application_commands (id, application_id, guild_id, type, name, description, handler, integration_types, contexts, version)
     VALUES (?, ?, NULL, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
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

export function updateCommandHandler(commandId: bigint, handler: number, version: bigint): void {
  sql("UPDATE application_commands SET handler = ?, version = ? WHERE id = ?").run(handler, version, commandId);
}

export function deleteCommandsOfType(applicationId: bigint, type: number): void {
  sql("DELETE FROM application_commands WHERE application_id = ? AND type = ?").run(applicationId, type);
}
