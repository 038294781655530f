// The database holds password hashes, token hashes and the dashboard's encrypted tokens: only the account that
// runs Guildhall may read it. The file is created 0600 before SQLite or Prisma first opens it (SQLite then gives
// its -wal and -shm files the database file's own mode), and files left world-readable by an older version are
// tightened, along with the secrets kept beside the database.
import fs from "node:fs";
import path from "node:path";

export const PRIVATE_FILE_MODE = 0o600;
const PRIVATE_DIRECTORY_MODE = 0o700;

/** The database's companions: SQLite's journal files and the secrets written next to it. */
const COMPANION_SUFFIXES = ["-wal", "-shm", "-journal", ".secrets.json", ".nextauth-secret"];

/** Creates `file` empty with mode 0600 if missing (an empty file is a valid new SQLite database), then tightens it and its companions. */
export function securePrivateDatabaseFiles(file: string): void {
  const directory = path.dirname(file);
  if (!fs.existsSync(directory)) fs.mkdirSync(directory, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  try {
    // "wx": only when missing, so an existing database is never truncated; the mode is applied on creation.
    fs.closeSync(fs.openSync(file, "wx", PRIVATE_FILE_MODE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  for (const candidate of [file, ...COMPANION_SUFFIXES.map((suffix) => file + suffix)]) tighten(candidate);
}

function tighten(file: string): void {
  try {
    if ((fs.statSync(file).mode & 0o777) !== PRIVATE_FILE_MODE) fs.chmodSync(file, PRIVATE_FILE_MODE);
  } catch (error) {
    // Missing companions are normal; a file owned by someone else is left for its owner.
    if (!["ENOENT", "EPERM"].includes((error as NodeJS.ErrnoException).code ?? "")) throw error;
  }
}
