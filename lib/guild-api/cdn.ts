// /cdn/{icons|splashes|discovery-splashes|banners|role-icons|avatars|guild-events}/{owner id}/{hash}.png: uploaded
// images by hash.
// /cdn/emojis/{emoji id}.{png|jpg|gif|webp}, /cdn/stickers/{sticker id}.{png|gif|json}, /cdn/soundboard-sounds/{id}:
// expression files by id, as Discord's CDN names them; an expression's file never changes, so its URL is immutable too.
import type { IncomingMessage, ServerResponse } from "node:http";
import { isSnowflake } from "@/lib/discord/snowflake";
import { invalidFormBody } from "./errors";
import { findImage, findImageOf, type StoredImage } from "./store/images";

// guild-events: scheduled events' cover images, under the event's id (Discord's guild-events/{event.id}/{hash}).
const KINDS = new Set(["icons", "splashes", "discovery-splashes", "banners", "role-icons", "avatars", "guild-events"]);

const EXPRESSION_FILE = /^\/cdn\/(emojis|stickers|soundboard-sounds)\/(\d{1,20})(?:\.(png|jpe?g|gif|webp|json))?$/;

function sendFile(req: IncomingMessage, res: ServerResponse, row: StoredImage | undefined): void {
  if (!row) {
    res.writeHead(404).end();
    return;
  }
  // Content-addressed or never changed: the bytes behind a URL never change.
  res.writeHead(200, {
    "content-type": row.content_type,
    "content-length": row.data.length,
    "cache-control": "public, max-age=31536000, immutable",
  });
  res.end(req.method === "HEAD" ? undefined : row.data);
}

export async function serveCdn(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  const expression = EXPRESSION_FILE.exec(path);
  if (expression) {
    const [, kind, id] = expression;
    // Served with the type its bytes have (a GIF emoji asked for as .png is still a GIF), as Discord does for
    // formats it does not convert.
    sendFile(req, res, isSnowflake(id) ? await findImageOf(kind, BigInt(id)) : undefined);
    return;
  }
  const [, , kind, ownerId, file] = path.split("/");
  const hash = file?.replace(/\.(png|jpg|jpeg|gif|webp)$/, "");
  if (!kind || !KINDS.has(kind) || !ownerId || !hash || !/^(a_)?[0-9a-f]{32}$/.test(hash)) {
    res.writeHead(404).end();
    return;
  }
  if (!isSnowflake(ownerId)) {
    // Out of the 64-bit range the database can bind (or not a number): Discord's 400 naming the field.
    const body = JSON.stringify(
      invalidFormBody([
        {
          path: ["owner_id"],
          code: "NUMBER_TYPE_COERCE",
          message: `Value "${path.split("/")[3].slice(0, 32)}" is not snowflake.`,
        },
      ]).toBody(),
    );
    res.writeHead(400, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body);
    return;
  }
  sendFile(req, res, await findImage(kind, BigInt(ownerId), hash));
}
