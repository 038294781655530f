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
