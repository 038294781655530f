// The images table: uploaded icons, banners, avatars and splashes, content-addressed by (kind, owner, hash).
import { sql } from "./db";

export interface StoredImage {
  content_type: string;
  data: Buffer;
}

export async function findImage(kind: string, ownerId: bigint, hash: string): Promise<StoredImage | undefined> {
  return (await sql.get(
    "SELECT content_type, data FROM images WHERE kind = ? AND owner_id = ? AND hash = ?",
    kind,
    ownerId,
    hash,
  )) as StoredImage | undefined;
}

/** Idempotent: the same bytes give the same hash, so a second insert changes nothing. */
export async function insertImage(
  kind: string,
  ownerId: bigint,
  hash: string,
  contentType: string,
  data: Buffer,
): Promise<void> {
  await sql.run(
    "INSERT INTO images (kind, owner_id, hash, content_type, data) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
    kind,
    ownerId,
    hash,
    contentType,
    data,
  );
}

/**
 * The file of an expression (kind emojis, stickers or soundboard-sounds, owner its id): Discord's CDN names those by
 * id alone, and an expression's file never changes, so there is one row per owner.
 */
export async function findImageOf(kind: string, ownerId: bigint): Promise<StoredImage | undefined> {
  return (await sql.get(
    "SELECT content_type, data FROM images WHERE kind = ? AND owner_id = ? LIMIT 1",
    kind,
    ownerId,
  )) as StoredImage | undefined;
}

export async function deleteImagesOf(kind: string, ownerId: bigint): Promise<void> {
  await sql.run("DELETE FROM images WHERE kind = ? AND owner_id = ?", kind, ownerId);
}
