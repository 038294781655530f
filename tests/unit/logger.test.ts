// The process's log (lib/server/logger.ts): credentials never reach a line, the current request's id is on every line
// written for it, and the level can be raised and put back.
import { describe, expect, it } from "vitest";
import { componentLogger, setLogLevel, tapLogs } from "@/lib/server/logger";
import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { withResponseFacts } from "@/lib/server/first-write";
import { currentRequestId, outsideRequest, withRequestId } from "@/lib/server/request-id";

function linesOf(write: () => void): Array<Record<string, unknown>> {
  const lines: Array<Record<string, unknown>> = [];
  const untap = tapLogs((line) => lines.push(line));
  try {
    write();
  } finally {
    untap();
  }
  return lines;
}

const log = componentLogger("logger-test");

describe("the log", () => {
  it("writes credentials as [redacted], at the top and in headers, bodies and errors", () => {
    const error = Object.assign(new Error("refused"), {
      token: "secret-3",
      config: { headers: { authorization: "Bot secret-4" } },
    });
    const [line] = linesOf(() =>
      log.warn(
        {
          token: "secret-1",
          client_secret: "secret-2",
          headers: { authorization: "Bearer secret-5", cookie: "session=secret-6", accept: "application/json" },
          req: { headers: { authorization: "Bot secret-7" } },
          body: { password: "secret-8", refresh_token: "secret-9", username: "mod" },
          err: error,
        },
        "a call failed",
      ),
    );
    const text = JSON.stringify(line);
    for (let n = 1; n <= 9; n++) expect(text).not.toContain(`secret-${n}`);
    expect(line).toMatchObject({
      component: "logger-test",
      msg: "a call failed",
      token: "[redacted]",
      headers: { authorization: "[redacted]", cookie: "[redacted]", accept: "application/json" },
      body: { password: "[redacted]", username: "mod" },
      err: { message: "refused", token: "[redacted]" },
    });
  });

  it("carries the current request's id, and none outside a request", () => {
    const [inside] = linesOf(() => withRequestId("req-1", () => log.warn("inside")));
    const [outside] = linesOf(() => withRequestId("req-1", () => outsideRequest(() => log.warn("outside"))));
    expect(inside.request_id).toBe("req-1");
    expect(outside).not.toHaveProperty("request_id");
  });

  it("carries a page's or action's id, which its own work started for everyone does not", async () => {
    const req = new IncomingMessage(new Socket());
    const res = new ServerResponse(req);
    const seen = await withResponseFacts(req, res, "page-9", async () => {
      await Promise.resolve();
      return { inside: currentRequestId(), outside: outsideRequest(() => currentRequestId()) };
    });
    expect(seen).toEqual({ inside: "page-9", outside: undefined });
    const [line] = linesOf(() => withResponseFacts(req, res, "page-9", () => log.warn("rendering")));
    expect(line.request_id).toBe("page-9");
  });

  it("writes below its level only once the level is lowered, and puts it back", () => {
    const restore = setLogLevel("warn");
    try {
      expect(linesOf(() => log.debug("hidden"))).toEqual([]);
      const back = setLogLevel("debug");
      expect(linesOf(() => log.debug("shown"))).toMatchObject([{ msg: "shown", level: 20 }]);
      back();
      expect(linesOf(() => log.debug("hidden again"))).toEqual([]);
    } finally {
      restore();
    }
  });
});
