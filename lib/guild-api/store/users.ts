// The users table: accounts (people and bots) as the API reads them. Passwords are scrypt hashes (tokens.ts).
import { sql } from "./db";
import { dialect } from "./dialect";

/** A user as the serializers take it; the optional columns are absent where a query reads fewer. */
export interface UserRow {
  id: bigint;
  username: string;
  global_name: string | null;
  discriminator: string;
  avatar: string | null;
  banner?: string | null;
  bot: bigint;
  system?: bigint;
  flags?: bigint;
  public_flags: bigint;
  locale?: string;
  mfa_enabled?: bigint;
}

/** The columns serializeUser reads: what a list of users' objects needs (fewer columns, less for PostgreSQL's client to parse). */
export const USER_OBJECT_COLUMNS =
  "id, username, global_name, discriminator, avatar, banner, bot, system, flags, public_flags";

export const USER_COLUMNS = `${USER_OBJECT_COLUMNS}, locale, mfa_enabled`;

/** USER_COLUMNS read from a users row aliased `u` (for joins). */
export const USER_COLUMNS_OF_U = USER_COLUMNS.split(", ")
  .map((column) => `u.${column}`)
  .join(", ");

/**
 * serializeUser's output built by SQLite from a users row aliased `u`, for lists answered as JSON text (the same
 * fields in the same order; migration 20261123120000_member_wire_json holds a copy for the stored member JSON).
 */
const USER_OBJECT_SQL = `json_object('id', CAST(u.id AS TEXT), 'username', u.username, 'global_name', u.global_name, 'discriminator', u.discriminator,
  'avatar', u.avatar, 'public_flags', u.public_flags, 'flags', u.flags, 'bot', CASE WHEN u.bot THEN json('true') ELSE json('false') END,
  'banner', u.banner, 'accent_color', NULL, 'avatar_decoration_data', NULL, 'collectibles', NULL, 'primary_guild', NULL)`;
export const USER_JSON_SQL = `CASE WHEN u.system THEN json_set(${USER_OBJECT_SQL}, '$.system', json('true')) ELSE ${USER_OBJECT_SQL} END`;

/** A JSON array of 64-bit ids, as json_each reads them exactly (ids are validated snowflakes). */
export const idListJson = (ids: readonly (bigint | string)[]) => `[${ids.join(",")}]`;

/**
 * The ids of an idListJson parameter (`param`: its placeholder) as rows of one bigint column, for `IN (…)`:
 * json_each on SQLite; on PostgreSQL the array's elements as text (exact for any 64-bit id, quoted or not), cast.
 * PostgreSQL plans a set-returning function's rows as 100 whatever the list holds, and then prefers hashing a whole
 * guild's rows (a seq scan of member_roles) to probing the index per id; unnest of an array computed once makes it
 * probe the primary key for each id.
 */
export const idsInJson = (param = "?") =>
  dialect({
    sqlite: `SELECT value FROM json_each(${param})`,
    postgresql: `SELECT unnest(ARRAY(SELECT CAST(value AS BIGINT) FROM jsonb_array_elements_text(CAST(${param} AS JSONB))))`,
  });

export async function findUser(userId: bigint): Promise<UserRow | undefined> {
  return (await sql.get(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`, userId)) as UserRow | undefined;
}

export async function userExists(userId: bigint): Promise<boolean> {
  return Boolean(await sql.get("SELECT 1 FROM users WHERE id = ?", userId));
}

/** The users among `userIds` (any order). */
export async function listUsersByIds(userIds: readonly (bigint | string)[]): Promise<UserRow[]> {
  if (userIds.length === 0) return [];
  return (await sql.all(
    `SELECT ${USER_COLUMNS} FROM users WHERE id IN (${idsInJson()})`,
    idListJson(userIds),
  )) as UserRow[];
}

/** The users among `userIds` given as decimal strings (audit-log target ids), by id. */
export async function listUsersByIdStrings(userIds: readonly string[]): Promise<UserRow[]> {
  if (userIds.length === 0) return [];
  return (await sql.all(
    dialect({
      sqlite: `SELECT ${USER_COLUMNS} FROM users WHERE id IN (SELECT CAST(value AS INTEGER) FROM json_each(?)) ORDER BY id`,
      postgresql: `SELECT ${USER_COLUMNS} FROM users WHERE id IN (${idsInJson()}) ORDER BY id`,
    }),
    JSON.stringify(userIds),
  )) as UserRow[];
}

/** Which of `userIds` name a user (a chunk of a target-users upload). */
export async function existingUserIds(userIds: readonly bigint[]): Promise<bigint[]> {
  if (userIds.length === 0) return [];
  return (await sql.values(`SELECT id FROM users WHERE id IN (${idsInJson()})`, idListJson(userIds))) as bigint[];
}

/** A person (never a bot) who may sign in: id, names and avatar. */
export interface PersonRow {
  id: bigint;
  username: string;
  global_name: string | null;
  avatar: string | null;
}

export async function findPerson(userId: bigint): Promise<PersonRow | undefined> {
  return (await sql.get("SELECT id, username, global_name, avatar FROM users WHERE id = ? AND bot = FALSE", userId)) as
    PersonRow | undefined;
}

/** The password hash of the person signing in as `username` (null hash: no password set). */
export async function findPasswordByUsername(
  username: string,
): Promise<{ id: bigint; password_hash: string | null } | undefined> {
  return (await sql.get("SELECT id, password_hash FROM users WHERE username = ? AND bot = FALSE", username)) as
    { id: bigint; password_hash: string | null } | undefined;
}
