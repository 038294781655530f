// One id per request, answered as `x-request-id` and written on every log line the request causes: the page or server
// action, each guild API call it makes (the dashboard's client sends the id along), and the gateway dispatches those
// calls write (the outbox row keeps it). The one-port server makes or adopts the id (create-server.ts); work started
// outside a request (the moderation scheduler) runs under an id of its own, and a job a request started (a target-user
// upload's chunks) under that request's. Kept on globalThis: the
// server loads this module outside Next's bundles, and the dashboard's code inside them.
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { ContextStorage } from "./async-context";
import { outsideResponse, thisResponse } from "./first-write";

export const REQUEST_ID_HEADER = "x-request-id";

/** What an id sent by a client may look like (a proxy's, the dashboard's own): safe on a log line, and bounded. */
const ACCEPTED_ID = /^[A-Za-z0-9._:-]{1,100}$/;

const STORE_KEY = Symbol.for("guildhall.requestId");
const store: ContextStorage<string> = ((globalThis as { [STORE_KEY]?: ContextStorage<string> })[STORE_KEY] ??=
  new ContextStorage());

export const newRequestId = (): string => randomUUID();

/** The id the client sent, when it is one we can log as it is; a new one otherwise. */
export function requestIdOf(req: IncomingMessage): string {
  const sent = req.headers[REQUEST_ID_HEADER];
  return typeof sent === "string" && ACCEPTED_ID.test(sent) ? sent : newRequestId();
}

/** Runs `fn` with `id` as the current request id, for it and everything it starts. */
export function withRequestId<T>(id: string, fn: () => T): T {
  return store.run(id, fn);
}

/**
 * Runs `fn` as no request's work, whatever request started it: a process-wide singleton started by the first page
 * that needs it (the live hub), or work woken by one request that serves every request (the gateway's drain).
 */
export function outsideRequest<T>(fn: () => T): T {
  return store.exit(() => outsideResponse(fn));
}

/** The id of the request (or background work) this code runs for, if any: its own, or the page's it runs in. */
export function currentRequestId(): string | undefined {
  return store.getStore() ?? thisResponse()?.requestId;
}
