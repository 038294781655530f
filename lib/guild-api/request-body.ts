// Reading request bodies within a limit, and parsing them: JSON (big-int safe, see json-body.ts), URL-encoded forms,
// and multipart forms streamed through busboy so an upload is parsed as it arrives, never held twice or parsed in one
// long synchronous step.
//
// A body over its limit is answered 413 with Discord's JSON error, not a TCP reset: the rest of the body is read and
// dropped (up to DRAIN_MAX_BYTES or DRAIN_MAX_MS) so the client gets to read the answer. Closing a socket that still
// has unread data makes the kernel send a reset, and the client then loses the response it was sent.
import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { Busboy, type BusboyInstance } from "@fastify/busboy";
import { RESTJSONErrorCodes } from "discord-api-types/v10";
import { TARGET_USERS_UPLOAD_MAX_BYTES } from "@/lib/discord/limits";
import { ApiError, Errors } from "./errors";
import { JsonBodyError, parseJsonBody } from "./json-body";

const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * Body limits. The spec gives none; these fit the largest legitimate body of each kind with room to spare.
 * - json: every JSON or URL-encoded body without images (the largest, Modify Guild Channel Positions for 500
 *   channels or a Bulk Guild Ban of 200 ids, is under 50 KiB).
 * - document: Modify Guild Onboarding (15 prompts of 50 options, each with up to 50 role and 50 channel ids).
 * - images: bodies carrying base64 images (Modify Guild's icon, splash, discovery splash and banner).
 * - upload: a multipart body with a target-users CSV, plus room for the form's other fields.
 */
export const BODY_LIMITS = {
  json: 256 * KiB,
  document: 2 * MiB,
  images: 16 * MiB,
  upload: TARGET_USERS_UPLOAD_MAX_BYTES + 64 * KiB,
} as const;

/** Multipart parts other than files (payload_json and plain fields) are small. */
const FORM_FIELD_MAX_BYTES = 64 * KiB;
const FORM_PARTS_MAX = 32;

/** What is read and dropped after a 413 before the connection is cut. */
const DRAIN_MAX_BYTES = 64 * MiB;
const DRAIN_MAX_MS = 10_000;

export const payloadTooLarge = (limit: number) =>
  new ApiError(
    413,
    RESTJSONErrorCodes.RequestEntityTooLarge,
    `Request entity too large: at most ${limit} bytes are accepted here.`,
  );

/**
 * Reads and drops the rest of a request after an early answer, so the client can finish sending and read it;
 * a client that sends more than DRAIN_MAX_BYTES or for longer than DRAIN_MAX_MS is cut off.
 */
export function discardRestOfBody(req: IncomingMessage): void {
  if (req.readableEnded || req.destroyed) return;
  let drained = 0;
  const cut = () => req.socket.destroy();
  const timer = setTimeout(cut, DRAIN_MAX_MS);
  timer.unref();
  req.removeAllListeners("data");
  req.on("data", (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_MAX_BYTES) cut();
  });
  req.once("close", () => clearTimeout(timer));
  req.once("end", () => clearTimeout(timer));
  req.resume();
}

/** The declared Content-Length, when there is one. */
function declaredLength(req: IncomingMessage): number | null {
  const header = req.headers["content-length"];
  if (header === undefined) return null;
  const length = Number(header);
  return Number.isFinite(length) ? length : null;
}

/** The whole body, at most `limit` bytes: 413 at once when the declared length or the bytes read pass it. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = declaredLength(req);
  if (declared !== null && declared > limit) {
    discardRestOfBody(req);
    return Promise.reject(payloadTooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        chunks.length = 0;
        discardRestOfBody(req);
        reject(payloadTooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
}

/** A JSON body (or payload_json) as a value (`whenEmpty` when empty); 400 50109 for anything that is not JSON. */
export function parseJson(body: Buffer | string, whenEmpty: unknown): unknown {
  if (body.length === 0) return whenEmpty;
  try {
    return parseJsonBody(typeof body === "string" ? body : body.toString("utf8"));
  } catch (error) {
    if (error instanceof JsonBodyError) throw Errors.bad(50109, "The request body contains invalid JSON.");
    throw error;
  }
}

/** 400 50035 for a form that can't be read, with the reason as the body's field error. */
const invalidForm = (message: string) =>
  new ApiError(400, RESTJSONErrorCodes.InvalidFormBodyOrContentType, "Invalid Form Body", {
    _errors: [{ code: "CONTENT_TYPE_INVALID", message }],
  });

/** An application/x-www-form-urlencoded body as FormData. */
export function parseUrlEncoded(buffer: Buffer): FormData {
  const form = new FormData();
  for (const [name, value] of new URLSearchParams(buffer.toString("utf8"))) form.append(name, value);
  return form;
}

/**
 * A multipart/form-data body as FormData (files as Blobs), parsed by busboy as the bytes arrive: at most `limit`
 * bytes in all (413 past it), files of at most TARGET_USERS_UPLOAD_MAX_BYTES, fields of at most 64 KiB.
 * `source` is the request itself, or its bytes when something already read them.
 */
export function parseMultipart(req: IncomingMessage, source: Buffer | null, limit: number): Promise<FormData> {
  const contentType = req.headers["content-type"] ?? "";
  const declared = declaredLength(req);
  if (source === null && declared !== null && declared > limit) {
    discardRestOfBody(req);
    return Promise.reject(payloadTooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    let settled = false;
    const form = new FormData();
    const pending: Array<Promise<void>> = [];
    const fail = (error: ApiError) => {
      if (settled) return;
      settled = true;
      if (source === null) {
        input.unpipe(parser);
        discardRestOfBody(req);
      }
      reject(error);
    };

    let parser: BusboyInstance;
    try {
      parser = new Busboy({
        headers: { ...req.headers, "content-type": contentType },
        limits: {
          fileSize: TARGET_USERS_UPLOAD_MAX_BYTES,
          fieldSize: FORM_FIELD_MAX_BYTES,
          parts: FORM_PARTS_MAX,
        },
      });
    } catch {
      if (source === null) discardRestOfBody(req);
      reject(invalidForm("The multipart body has no boundary."));
      return;
    }
    parser.on("field", (name: string, value: string, _nameTruncated: boolean, valueTruncated: boolean) => {
      if (valueTruncated) fail(payloadTooLarge(FORM_FIELD_MAX_BYTES));
      else form.append(name, value);
    });
    parser.on("file", (name: string, stream: Readable, filename: string, _encoding: string, mimeType: string) => {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("limit", () => {
        chunks.length = 0;
        fail(payloadTooLarge(TARGET_USERS_UPLOAD_MAX_BYTES));
      });
      pending.push(
        new Promise((done) =>
          stream.on("end", () => {
            if (!settled) form.append(name, new Blob([Buffer.concat(chunks)], { type: mimeType }), filename);
            done();
          }),
        ),
      );
    });
    parser.on("partsLimit", () => fail(payloadTooLarge(limit)));
    parser.on("error", () => fail(invalidForm("The multipart body is malformed.")));
    parser.on("finish", () => {
      void Promise.all(pending).then(() => {
        if (settled) return;
        settled = true;
        resolve(form);
      });
    });

    const input = source === null ? countingStream(req, limit, fail) : Readable.from([source]);
    input.pipe(parser);
  });
}

/** `req` as a stream that fails with 413 once more than `limit` bytes have passed (a body without Content-Length). */
function countingStream(req: IncomingMessage, limit: number, fail: (error: ApiError) => void): Readable {
  let size = 0;
  req.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) fail(payloadTooLarge(limit));
  });
  return req;
}
