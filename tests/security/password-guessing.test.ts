// Finding 8 (password guessing): the built-in provider's sign-in (used by the OAuth2 authorize page and the
// Developer Portal) refuses the 6th wrong attempt on an account from one address with the time to wait, refuses even
// the right password from that address while the wait lasts (without hashing it), limits one address across
// accounts and one account across many addresses, and checks passwords off the event loop. That one address cannot
// lock the owner out from another: tests/security/account-lockout.test.ts. Against the seeded demo world's users,
// whose password is "guildhall".
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  ACCOUNT_AT_ADDRESS_POLICY,
  ACCOUNT_WIDE,
  IP_POLICY,
  LoginThrottle,
  processSignInThrottle,
  signInErrorMessage,
  signInThrottleKeys,
} from "@/lib/guild-api/login-throttle";
import { PROVIDER_SESSION_COOKIE } from "@/lib/guild-api/provider-session";
import { testServerForFile } from "../integration/harness";

const server = testServerForFile();
let signIn: typeof import("@/lib/guild-api/services/password-sign-in").signInWithPassword;
beforeAll(async () => {
  ({ signInWithPassword: signIn } = await import("@/lib/guild-api/services/password-sign-in"));
});

/** A throttle of its own per test, on a clock the test moves. */
function throttleAt(start = 1_000_000) {
  const clock = { now: start };
  return { clock, throttle: new LoginThrottle(1_000, () => clock.now) };
}

describe("sign-in with a password", () => {
  test("the 6th wrong attempt from an address is refused with a retry time, and so is its right password meanwhile", async () => {
    const { throttle } = throttleAt(Date.now());
    for (let attempt = 1; attempt <= 5; attempt++)
      expect(await signIn("mod", `wrong-${attempt}`, { throttle, clientIp: "203.0.113.5" })).toEqual({
        ok: false,
        reason: "wrong-credentials",
      });
    const sixth = await signIn("mod", "wrong-6", { throttle, clientIp: "203.0.113.5" });
    expect(sixth).toMatchObject({ ok: false, reason: "throttled" });
    const retryAfterMs = (sixth as { retryAfterMs: number }).retryAfterMs;
    expect(retryAfterMs).toBeGreaterThan(0);
    expect(retryAfterMs).toBeLessThanOrEqual(ACCOUNT_AT_ADDRESS_POLICY.baseDelayMs);
    // The right password, from the same address, is refused while the account waits there.
    expect(await signIn("mod", "guildhall", { throttle, clientIp: "203.0.113.5" })).toMatchObject({
      ok: false,
      reason: "throttled",
    });
    // From another address it works: one guesser cannot lock the owner out (account-lockout.test.ts).
    expect(await signIn("mod", "guildhall", { throttle, clientIp: "198.51.100.7" })).toMatchObject({ ok: true });
    // Another account is not affected.
    expect(await signIn("helper", "guildhall", { throttle, clientIp: "203.0.113.5" })).toMatchObject({ ok: true });
  });

  test("once the wait is over the right password works and clears the account's failures", async () => {
    const throttle = new LoginThrottle();
    for (let attempt = 1; attempt <= 5; attempt++) await signIn("admin", "nope", { throttle });
    expect(await signIn("admin", "guildhall", { throttle })).toMatchObject({ reason: "throttled" });
    await new Promise((resolve) => setTimeout(resolve, ACCOUNT_AT_ADDRESS_POLICY.baseDelayMs + 50));
    expect(await signIn("admin", "guildhall", { throttle })).toMatchObject({
      ok: true,
      userId: BigInt(server.world.users.admin),
    });
    for (let attempt = 1; attempt <= 5; attempt++)
      expect(await signIn("admin", "nope", { throttle })).toMatchObject({ reason: "wrong-credentials" });
  });

  test("a throttled attempt runs no password hashing", async () => {
    const { throttle } = throttleAt(Date.now());
    for (let attempt = 1; attempt <= 5; attempt++) await signIn("member", "nope", { throttle });
    const started = performance.now();
    for (let attempt = 0; attempt < 50; attempt++) await signIn("member", "guildhall", { throttle });
    // 50 scrypt checks take seconds; 50 refusals take about nothing.
    expect(performance.now() - started).toBeLessThan(500);
  });

  test("parallel guessers cannot all slip in before the first failure is counted", async () => {
    const { throttle } = throttleAt(Date.now());
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => signIn("owner", `parallel-${i}`, { throttle, clientIp: "192.0.2.9" })),
    );
    expect(results.filter((result) => !result.ok && result.reason === "wrong-credentials")).toHaveLength(5);
    expect(results.filter((result) => !result.ok && result.reason === "throttled")).toHaveLength(7);
  });

  test("unknown usernames are throttled the same way (no account enumeration by the brake)", async () => {
    const { throttle } = throttleAt(Date.now());
    for (let attempt = 1; attempt <= 5; attempt++)
      expect(await signIn("nobody-here", "x", { throttle })).toMatchObject({ reason: "wrong-credentials" });
    expect(await signIn("nobody-here", "x", { throttle })).toMatchObject({ reason: "throttled" });
  });

  test("password checks do not block the event loop", async () => {
    const throttle = new LoginThrottle();
    // Seven guessers on distinct accounts and addresses, so none is throttled: every attempt runs scrypt (~50 ms of
    // CPU). Measured: the time each call holds the event loop before it returns its promise. Synchronous scrypt
    // held it for the whole hash; the async one hands the work to libuv's thread pool at once.
    const held: number[] = [];
    const pending: Array<Promise<unknown>> = [];
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 1);
    for (const [i, user] of ["owner", "admin", "mod", "helper", "member", "outsider", "ghost"].entries()) {
      const started = performance.now();
      pending.push(signIn(user, `guess-${i}`, { throttle, clientIp: `198.51.100.${i}` }));
      held.push(performance.now() - started);
    }
    await Promise.all(pending);
    clearInterval(ticker);
    // The median, so one call caught by GC or a busy CPU does not decide; synchronous scrypt held every call 40 ms+.
    const median = [...held].sort((a, b) => a - b)[Math.floor(held.length / 2)];
    expect(median, held.map((ms) => ms.toFixed(1)).join(" ")).toBeLessThan(10);
    // The loop kept turning while the hashes ran.
    expect(ticks).toBeGreaterThan(0);
  });
});

describe("the throttle", () => {
  const account = signInThrottleKeys("Mod", "203.0.113.1")[0];

  test("waits double past the free failures, up to the cap", () => {
    const { clock, throttle } = throttleAt();
    // Failed attempts as fast as the throttle lets them through: how many pass between refusals, and each wait.
    const allowedRuns: number[] = [0];
    const waits: number[] = [];
    while (waits.length < 12) {
      const start = throttle.begin([account]);
      if (start.allowed) {
        allowedRuns[allowedRuns.length - 1]++;
        continue;
      }
      waits.push(start.retryAfterMs);
      allowedRuns.push(0);
      clock.now += start.retryAfterMs;
    }
    expect(allowedRuns.slice(0, 3)).toEqual([5, 1, 1]);
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300, 300].map((s) => s * 1000));
    expect(ACCOUNT_AT_ADDRESS_POLICY.maxDelayMs).toBe(300_000);
  });

  test("failures are forgotten after a quiet period", () => {
    const { clock, throttle } = throttleAt();
    for (let failure = 1; failure <= 5; failure++) throttle.begin([account]);
    expect(throttle.begin([account]).allowed).toBe(false);
    clock.now += ACCOUNT_AT_ADDRESS_POLICY.forgetAfterMs + 1;
    expect(throttle.begin([account]).allowed).toBe(true);
    expect(throttle.begin([account]).allowed).toBe(true);
  });

  test("usernames compare case-insensitively; the account is keyed at its address", () => {
    expect(signInThrottleKeys("MOD ", null)).toEqual([{ key: "account:mod", policy: ACCOUNT_AT_ADDRESS_POLICY }]);
    expect(signInThrottleKeys("MOD ", "192.0.2.9")).toEqual([
      { key: "account:mod@192.0.2.9", policy: ACCOUNT_AT_ADDRESS_POLICY },
      { key: "ip:192.0.2.9", policy: IP_POLICY },
    ]);
  });

  test("one address trying many accounts is held back too", () => {
    const { throttle } = throttleAt();
    let refused = 0;
    for (let user = 0; user < IP_POLICY.freeFailures + 5; user++)
      if (!throttle.beginSignIn(`user-${user}`, "192.0.2.1").allowed) refused++;
    expect(refused).toBe(5);
    expect(throttle.beginSignIn("someone-else", "192.0.2.2").allowed).toBe(true);
  });

  test("one account tried from many addresses waits for addresses without a recent sign-in, until the window passes", () => {
    const { clock, throttle } = throttleAt();
    // A wrong guess from one address, then the owner signs in from home.
    throttle.beginSignIn("owner", "192.0.2.50");
    const home = throttle.beginSignIn("owner", "192.0.2.60");
    if (!home.allowed) throw new Error("refused");
    home.attempt.succeeded();
    // One failure from each of ACCOUNT_WIDE.addresses addresses (192.0.2.50 above counts as one).
    for (let i = 1; i < ACCOUNT_WIDE.addresses; i++)
      expect(throttle.beginSignIn("owner", `198.51.100.${i}`).allowed).toBe(true);
    const stranger = throttle.beginSignIn("owner", "198.51.100.200");
    expect(stranger).toMatchObject({ allowed: false });
    expect((stranger as { retryAfterMs: number }).retryAfterMs).toBeLessThanOrEqual(ACCOUNT_WIDE.windowMs);
    expect(throttle.beginSignIn("owner", "192.0.2.60").allowed).toBe(true);
    // One address failing again and again counts once: it never makes the account wait on its own.
    for (let i = 0; i < 4; i++) throttle.beginSignIn("admin", "192.0.2.70");
    clock.now += 60 * 60_000;
    for (let i = 0; i < 50; i++) {
      clock.now += 5 * 60_000;
      throttle.beginSignIn("admin", "192.0.2.70");
    }
    expect(throttle.beginSignIn("admin", "198.51.100.201").allowed).toBe(true);
    // Once the failures leave the window, new addresses may try the first account again.
    clock.now += ACCOUNT_WIDE.windowMs;
    expect(throttle.beginSignIn("owner", "198.51.100.202").allowed).toBe(true);
  });

  test("an address that keeps guessing at a locked account is held back itself; the account's lock spares others", () => {
    const { throttle } = throttleAt();
    const guess = () => throttle.beginSignIn("mod", "192.0.2.3");
    for (let attempt = 0; attempt < ACCOUNT_AT_ADDRESS_POLICY.freeFailures; attempt++)
      expect(guess().allowed).toBe(true);
    // Refused because the account waits there: each refusal still counts against the address, until it waits too.
    for (let attempt = ACCOUNT_AT_ADDRESS_POLICY.freeFailures; attempt < IP_POLICY.freeFailures; attempt++) guess();
    expect(throttle.waitFor("ip:192.0.2.3")).toBeGreaterThan(0);
    // The same person's other accounts from that address wait as well; other addresses do not.
    expect(throttle.beginSignIn("helper", "192.0.2.3").allowed).toBe(false);
    expect(throttle.beginSignIn("helper", "192.0.2.4").allowed).toBe(true);
    // A locked address's refusals do not count against the accounts it names.
    for (let attempt = 0; attempt < 10; attempt++) throttle.beginSignIn("admin", "192.0.2.3");
    expect(throttle.waitFor("account:admin@192.0.2.3")).toBe(0);
  });

  test("memory is bounded", () => {
    const { throttle } = throttleAt();
    for (let i = 0; i < 5_000; i++) throttle.beginSignIn(`spray-${i}`, `10.0.${i >> 8}.${i & 255}`);
    // Keys, accounts tried from many addresses and trusted addresses: each bounded by the throttle's 1,000.
    expect(throttle.size).toBeLessThanOrEqual(3 * 1_000);
  });

  test("the person is told when to try again", () => {
    expect(signInErrorMessage("throttled", "30")).toBe("Too many attempts. Try again in 30 seconds.");
    expect(signInErrorMessage("throttled", "90")).toBe("Too many attempts. Try again in 2 minutes.");
    expect(signInErrorMessage("throttled", "junk")).toBe("Too many attempts. Try again later.");
    expect(signInErrorMessage("1", undefined)).toBe("Wrong username or password.");
    expect(signInErrorMessage(undefined, undefined)).toBeNull();
  });
});

describe("the sign-in forms' front door", () => {
  // Each check comes from its own address (the server trusts X-Forwarded-For here, as behind a proxy), locked out
  // just before, because every refused answer is held for the lock's remaining wait.
  beforeAll(() => {
    process.env.TRUST_PROXY = "1";
  });
  afterAll(() => {
    delete process.env.TRUST_PROXY;
  });
  const authorizeQuery = "client_id=1&scope=identify&response_type=code";
  const post = (address: string, path: string, headers: Record<string, string> = {}) =>
    fetch(`${server.baseUrl}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": address, ...headers },
      body: "username=mod&password=guess",
    });
  /** Guesses at one account from `address` until the address itself is held back, as a guesser's loop does. */
  const lockOut = (address: string) => {
    for (let attempt = 0; attempt <= IP_POLICY.freeFailures; attempt++)
      processSignInThrottle().begin(signInThrottleKeys("owner", address));
    expect(processSignInThrottle().waitFor(`ip:${address}`)).toBeGreaterThan(0);
  };

  test("a locked-out address's sign-in form posts are answered by the server, held for the wait, before Next", async () => {
    // Not locked out: the request goes on (this API-only server has no Next, so it ends in a 404).
    expect((await post("198.51.100.20", `/oauth2/authorize?${authorizeQuery}`)).status).toBe(404);

    lockOut("198.51.100.20");
    const started = performance.now();
    const form = await post("198.51.100.20", `/oauth2/authorize?${authorizeQuery}&login_error=1`);
    // Held for the growing delay (at most a second), so a guesser in a loop is slowed down too.
    expect(performance.now() - started).toBeGreaterThanOrEqual(800);
    expect(form.status).toBe(303);
    const location = new URL(form.headers.get("location")!, server.baseUrl);
    expect(location.pathname).toBe("/oauth2/authorize");
    expect(location.searchParams.get("client_id")).toBe("1");
    expect(location.searchParams.get("login_error")).toBe("throttled");
    expect(Number(location.searchParams.get("retry_after"))).toBeGreaterThan(0);
    expect(Number(form.headers.get("retry-after"))).toBeGreaterThan(0);
    // Other addresses are not affected.
    expect((await post("198.51.100.21", `/oauth2/authorize?${authorizeQuery}`)).status).toBe(404);
  });

  test("React's server-action call gets the redirect the way Next's client follows it", async () => {
    lockOut("198.51.100.22");
    const action = await post("198.51.100.22", "/developers/login?next=%2Fdevelopers%2Fapplications", {
      "next-action": "abc",
    });
    expect(action.status).toBe(303);
    expect(action.headers.get("location")).toBeNull();
    const [target, kind] = action.headers.get("x-action-redirect")!.split(";");
    expect(kind).toBe("push");
    const redirected = new URL(target, server.baseUrl);
    expect(redirected.pathname).toBe("/developers/login");
    expect(redirected.searchParams.get("error")).toBe("throttled");
    expect(redirected.searchParams.get("next")).toBe("/developers/applications");
  });

  test("a signed-in person's consent or sign-out, and reading the page, are never stopped", async () => {
    lockOut("198.51.100.23");
    const signedIn = await post("198.51.100.23", `/oauth2/authorize?${authorizeQuery}`, {
      cookie: `${PROVIDER_SESSION_COOKIE}=x`,
    });
    expect(signedIn.status).toBe(404);
    const page = await fetch(`${server.baseUrl}/oauth2/authorize?${authorizeQuery}`, {
      headers: { "x-forwarded-for": "198.51.100.23" },
    });
    expect(page.status).toBe(404);
  });
});
