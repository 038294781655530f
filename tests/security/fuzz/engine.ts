// Sends one generated request over a real socket and judges the answer against the properties of issue 12:
// a 2xx or a 4xx, never a 5xx or a hang; every 4xx carries Discord's error body; a refused request changes nothing.
import http from "node:http";
import type { Caller, FuzzRequest } from "./operations";
import type { DatabaseFingerprint } from "./fingerprint";

/** A request that has no answer after this long counts as a hang. */
export const REQUEST_TIMEOUT_MS = 5_000;
const BODY_EXCERPT = 300;

export interface FuzzTarget {
  /** http://host:port of the server; requests go to /api/v10. */
  baseUrl: string;
  /** The Authorization header for a caller, or undefined to send none. */
  authorization(caller: Caller): string | undefined;
  fingerprint: DatabaseFingerprint;
}

export interface Answer {
  status: number;
  contentType: string;
  body: string;
  ms: number;
}

export interface Verdict {
  request: FuzzRequest;
  answer: Answer | null;
  /** Empty when every property holds. */
  problems: string[];
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

function send(target: FuzzTarget, request: FuzzRequest): Promise<Answer> {
  const url = new URL(target.baseUrl);
  const headers: Record<string, string> = { ...request.headers };
  const authorization = target.authorization(request.caller);
  if (authorization && !headers.authorization) headers.authorization = authorization;
  const payload = request.body ? Buffer.from(request.body.text, "utf8") : undefined;
  if (request.body?.contentType) headers["content-type"] = request.body.contentType;
  if (payload) headers["content-length"] = String(payload.length);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    // A server may answer (413) before it has read the whole body and then close: the client's write then fails
    // with EPIPE or ECONNRESET, but the answer it already received is what counts.
    let answered = false;
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: request.method,
        path: `/api/v10${request.path}${request.query ? `?${request.query}` : ""}`,
        headers,
        agent,
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers["content-type"] ?? ""),
            body: Buffer.concat(chunks).toString("utf8"),
            ms: performance.now() - started,
          }),
        );
        res.on("error", reject);
      },
    );
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    req.end(payload);
  });
}

/** Sends `request` and checks every property; never throws. */
export async function judge(target: FuzzTarget, request: FuzzRequest): Promise<Verdict> {
  await target.fingerprint.settle();
  const before = target.fingerprint.before();
  let answer: Answer;
  try {
    answer = await send(target, request);
  } catch (error) {
    return { request, answer: null, problems: [`no answer: ${(error as Error).message}`] };
  }
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`${answer.status} server error`);
  else if (answer.status < 200 || (answer.status >= 300 && answer.status < 400))
    problems.push(`status ${answer.status} is neither 2xx nor 4xx`);
  if (answer.status >= 400 && answer.status < 500) {
    problems.push(...errorBodyProblems(request, answer));
    if (!target.fingerprint.unchangedSince(before))
      problems.push(`refused with ${answer.status} but the database changed`);
  }
  return { request, answer, problems };
}

const isOAuth2TokenEndpoint = (request: FuzzRequest) => request.path.startsWith("/oauth2/token");
/** Update Target Users, or Create Channel Invite with a target_users_file part: both validate the same CSV file. */
const isTargetUsersUpload = (request: FuzzRequest) =>
  (request.method === "PUT" && /^\/invites\/[^/]+\/target-users$/.test(request.path)) ||
  (request.body?.text.includes('name="target_users_file"') ?? false);

/** Discord's error shape; the two documented exceptions are named where they apply. */
export function errorBodyProblems(request: FuzzRequest, answer: Answer): string[] {
  if (!answer.contentType.startsWith("application/json")) return [`${answer.status} without a JSON error body`];
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return [`${answer.status} whose body is not JSON`];
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) return ["error body is not an object"];
  const json = body as Record<string, unknown>;
  // RFC 6749 §5.2: the token endpoints answer OAuth2 clients with {error, error_description}. A body too large to
  // read is not an OAuth2 error (RFC 6749 has none for it): it gets Discord's 413, as every other route does.
  if (isOAuth2TokenEndpoint(request) && answer.status !== 413)
    return typeof json.error === "string" ? [] : ["OAuth2 error without a string `error`"];
  // The spec gives a bad target-users file its own body: {"target_users_file": ["line 3: ...", ...]} (it names Update
  // Target Users; Create Channel Invite's optional file is the same file, checked by the same code).
  if (isTargetUsersUpload(request) && Array.isArray(json.target_users_file))
    return json.target_users_file.every((line) => typeof line === "string") ? [] : ["target_users_file lines"];
  if (answer.status === 429) return typeof json.retry_after === "number" ? [] : ["429 without retry_after"];
  const problems: string[] = [];
  if (typeof json.code !== "number") problems.push("error body without a numeric `code`");
  if (typeof json.message !== "string") problems.push("error body without a string `message`");
  if (json.code === 50035) {
    if (!json.errors || typeof json.errors !== "object") problems.push("50035 without an `errors` tree");
    else problems.push(...errorTreeProblems(json.errors, "errors"));
  }
  return problems;
}

/** Every branch ends in `_errors: [{code, message}]`. */
function errorTreeProblems(tree: unknown, at: string): string[] {
  if (!tree || typeof tree !== "object" || Array.isArray(tree)) return [`${at} is not an object`];
  const entries = Object.entries(tree as Record<string, unknown>);
  if (entries.length === 0) return [`${at} is empty`];
  const problems: string[] = [];
  for (const [key, value] of entries) {
    if (key === "_errors") {
      if (!Array.isArray(value) || value.length === 0) problems.push(`${at}._errors is not a non-empty array`);
      else if (
        !value.every(
          (e) =>
            e &&
            typeof e === "object" &&
            ["string", "number"].includes(typeof (e as { code: unknown }).code) &&
            typeof (e as { message: unknown }).message === "string",
        )
      )
        problems.push(`${at}._errors has an entry without {code, message}`);
    } else problems.push(...errorTreeProblems(value, `${at}.${key}`));
  }
  return problems;
}

/** One line that reproduces the request with curl (body excerpted when long). */
export function describeRequest(request: FuzzRequest): string {
  const body = request.body
    ? ` -H 'content-type: ${request.body.contentType ?? ""}' --data-raw ${JSON.stringify(excerpt(request.body.text))}`
    : "";
  const headers = Object.entries(request.headers ?? {})
    .map(([k, v]) => ` -H ${JSON.stringify(`${k}: ${excerpt(v)}`)}`)
    .join("");
  const query = request.query ? `?${excerpt(request.query)}` : "";
  return `[${request.caller}] ${request.method} /api/v10${excerpt(request.path)}${query}${headers}${body} (${request.variant})`;
}

export function describeAnswer(answer: Answer | null): string {
  return answer ? `${answer.status} ${excerpt(answer.body)}` : "no answer";
}

const excerpt = (text: string) =>
  text.length > BODY_EXCERPT ? `${text.slice(0, BODY_EXCERPT)}… (${text.length} chars)` : text;
