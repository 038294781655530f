// Most of the store's SQL is written once, in what SQLite and PostgreSQL both speak (ON CONFLICT, RETURNING,
// COALESCE, TRUE/FALSE, ->>); the driver adapts placeholders and values. Where the engines differ (JSON
// aggregation, full-text search, date arithmetic), a statement names both texts and the running engine's is used.
import { storeOnPostgresql } from "./db";

export interface DialectTexts {
  sqlite: string;
  postgresql: string;
}

/** The text for the engine the store runs on. */
export function dialect(texts: DialectTexts): string {
  return storeOnPostgresql() ? texts.postgresql : texts.sqlite;
}
