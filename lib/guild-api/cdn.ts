// /cdn/{icons|splashes|discovery-splashes|banners|role-icons}/{owner id}/{hash}.png: uploaded images by hash.
import type { IncomingMessage, ServerResponse } from "node:http";
import { sql } from "./store/db";

const KINDS = new Set(["icons", "splashes", "discovery-splashes", "banners", "role-icons", "avatars"]);

export function serveCdn(req: IncomingMessage, res: ServerResponse, path: string): void {
  const [, , kind, ownerId, file] = path.split("/");
  const hash = file?.replace(/\.(png|jpg|jpeg|gif|webp)$/, "");
  if (
    !kind ||
    !KINDS.has(kind) ||
    !ownerId ||
    !/^\d{1,20}$/.test(ownerId) ||
    !hash ||
    !/^(a_)?[0-9a-f]{32}$/.test(hash)
  ) {
    res.writeHead(404).end();
    return;
  }
  const row = sql("SELECT content_type, data FROM images WHERE kind = ? AND owner_id = ? AND hash = ?").get(
    kind,
    BigInt(ownerId),
    hash,
  ) as { content_type: string; data: Buffer } | undefined;
  if (!row) {
    res.writeHead(404).end();
    return;
  }
  // Content-addressed: a new image gets a new hash, so the bytes behind a URL never change.
  res.writeHead(200, {
    "content-type": row.content_type,
    "content-length": row.data.length,
    "cache-control": "public, max-age=31536000, immutable",
  });
  res.end(req.method === "HEAD" ? undefined : row.data);
}
