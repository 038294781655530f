"use client";

// The sample Activity: the real, unmodified @discord/embedded-app-sdk. It waits for `ready`, authorizes,
// exchanges the code at its own backend (/api/token) with its PKCE verifier (the challenge went with the authorize:
// the Activity's application requires it), authenticates, then shows the user, the current guild
// (from GET /users/@me/guilds) and channel, and who is speaking. Speaking events need `rpc.voice.read`:
// when the host refuses the subscription, the Activity says so and offers to authorize it.
import { DiscordSDK, Events } from "@discord/embedded-app-sdk";
import { useCallback, useEffect, useRef, useState } from "react";
import { ACTIVITY_BASE_SCOPES as BASE_SCOPES, ACTIVITY_VOICE_SCOPE as VOICE_SCOPE } from "@/lib/activity/scopes";

type Phase = "connecting" | "signing-in" | "loading" | "ready" | "signed-out" | "error";
type VoiceStatus = "idle" | "listening" | "needs-permission" | "unavailable";

interface ActivityUser {
  id: string;
  username: string;
  global_name?: string | null;
  avatar?: string | null;
}
interface ActivityGuild {
  id: string;
  name: string;
  icon: string | null;
}
interface ActivityChannel {
  id: string;
  name?: string | null;
  type: number;
}

/** Behind Discord's proxy every request to our own server goes through /.proxy. */
function apiPath(path: string): string {
  return typeof window !== "undefined" && window.location.hostname.endsWith(".discordsays.com")
    ? `/.proxy${path}`
    : path;
}

/** A PKCE pair (RFC 7636, S256): a random verifier kept in this page, and its SHA-256 challenge sent to authorize. */
async function pkcePair(): Promise<{ verifier: string; challenge: string }> {
  const base64url = (bytes: Uint8Array) =>
    btoa(String.fromCharCode(...bytes))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return { verifier, challenge: base64url(new Uint8Array(digest)) };
}

function errorMessage(error: unknown): string {
  if (error && typeof error === "object" && "message" in error && typeof error.message === "string" && error.message)
    return error.message;
  return "Something went wrong.";
}

export function ActivityApp({ clientId, cdnBase, launched }: { clientId: string; cdnBase: string; launched: boolean }) {
  const sdkRef = useRef<DiscordSDK | null>(null);
  const tokenRef = useRef<string | null>(null);
  const [phase, setPhase] = useState<Phase>("connecting");
  const [problem, setProblem] = useState<string | null>(null);
  const [user, setUser] = useState<ActivityUser | null>(null);
  const [guild, setGuild] = useState<ActivityGuild | null>(null);
  const [channel, setChannel] = useState<ActivityChannel | null>(null);
  const [voice, setVoice] = useState<VoiceStatus>("idle");
  const [speaking, setSpeaking] = useState<string[]>([]);

  const onSpeakingStart = useCallback(
    (event: { user_id: string }) => setSpeaking((ids) => (ids.includes(event.user_id) ? ids : [...ids, event.user_id])),
    [],
  );
  const onSpeakingStop = useCallback(
    (event: { user_id: string }) => setSpeaking((ids) => ids.filter((id) => id !== event.user_id)),
    [],
  );

  const listenForSpeaking = useCallback(async () => {
    const sdk = sdkRef.current;
    if (!sdk?.channelId) {
      setVoice("unavailable");
      return;
    }
    try {
      await sdk.subscribe(Events.SPEAKING_START, onSpeakingStart, { channel_id: sdk.channelId });
      await sdk.subscribe(Events.SPEAKING_STOP, onSpeakingStop, { channel_id: sdk.channelId });
      setVoice("listening");
    } catch {
      // The SDK keeps the local listener even when the host refuses: remove it so a retry subscribes again.
      await sdk
        .unsubscribe(Events.SPEAKING_START, onSpeakingStart, { channel_id: sdk.channelId })
        .catch(() => undefined);
      await sdk.unsubscribe(Events.SPEAKING_STOP, onSpeakingStop, { channel_id: sdk.channelId }).catch(() => undefined);
      setVoice("needs-permission");
    }
  }, [onSpeakingStart, onSpeakingStop]);

  /** authorize → /api/token → authenticate, with the given scopes. */
  const signIn = useCallback(
    async (scopes: readonly string[]) => {
      const sdk = sdkRef.current!;
      setPhase("signing-in");
      setProblem(null);
      let code: string;
      const pkce = await pkcePair();
      try {
        ({ code } = await sdk.commands.authorize({
          client_id: clientId,
          response_type: "code",
          state: "",
          prompt: "none",
          scope: [...scopes] as never,
          code_challenge: pkce.challenge,
          code_challenge_method: "S256",
        }));
      } catch {
        setPhase("signed-out");
        setProblem("You cancelled sign-in, so the Activity can't see your servers.");
        return false;
      }
      const response = await fetch(apiPath("/api/token"), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ code, code_verifier: pkce.verifier }),
      });
      const body = (await response.json().catch(() => ({}))) as { access_token?: string; message?: string };
      if (!response.ok || !body.access_token) {
        setPhase("error");
        setProblem(body.message ?? "Sign-in failed: the Activity's server could not exchange the code.");
        return false;
      }
      try {
        const auth = await sdk.commands.authenticate({ access_token: body.access_token });
        tokenRef.current = auth.access_token;
        setUser(auth.user);
      } catch (error) {
        setPhase("error");
        setProblem(`Discord did not accept the sign-in: ${errorMessage(error)}`);
        return false;
      }
      return true;
    },
    [clientId],
  );

  const loadContext = useCallback(async () => {
    const sdk = sdkRef.current!;
    setPhase("loading");
    const response = await fetch(apiPath("/api/v10/users/@me/guilds"), {
      headers: { authorization: `Bearer ${tokenRef.current}` },
    });
    if (!response.ok) {
      setPhase("error");
      setProblem(`Could not load your servers (HTTP ${response.status}).`);
      return;
    }
    const guilds = (await response.json()) as ActivityGuild[];
    setGuild(guilds.find((g) => g.id === sdk.guildId) ?? null);
    if (sdk.channelId && sdk.guildId) {
      const found = await sdk.commands.getChannel({ channel_id: sdk.channelId }).catch(() => null);
      if (found) setChannel({ id: found.id, name: found.name, type: found.type });
    }
    setPhase("ready");
    await listenForSpeaking();
  }, [listenForSpeaking]);

  const start = useCallback(async () => {
    if (await signIn(BASE_SCOPES)) await loadContext();
  }, [signIn, loadContext]);

  const allowVoice = useCallback(async () => {
    if (await signIn([...BASE_SCOPES, VOICE_SCOPE])) {
      setPhase("ready");
      await listenForSpeaking();
    }
  }, [signIn, listenForSpeaking]);

  useEffect(() => {
    if (sdkRef.current || !launched) return;
    const sdk = new DiscordSDK(clientId);
    sdkRef.current = sdk;
    sdk.ready().then(start, (error: unknown) => {
      setPhase("error");
      setProblem(errorMessage(error));
    });
  }, [clientId, launched, start]);

  // The SDK throws without the launch parameters the Discord client adds; say so instead of crashing.
  if (!launched) {
    return (
      <Shell>
        <h1 className="text-2xl font-semibold">Guildhall Activity</h1>
        <p className="text-ink-muted">
          This Activity runs inside Discord (or Guildhall&apos;s host simulator). Launch it from a voice channel&apos;s
          Activity shelf.
        </p>
      </Shell>
    );
  }

  return (
    <Shell>
      <header className="flex items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold">Guildhall Activity</h1>
        <span data-testid="activity-phase" className="rounded-full bg-surface-raised px-3 py-1 text-sm text-ink-muted">
          {phase === "connecting"
            ? "Connecting…"
            : phase === "signing-in"
              ? "Signing in…"
              : phase === "loading"
                ? "Loading…"
                : phase === "ready"
                  ? "Ready"
                  : phase === "signed-out"
                    ? "Signed out"
                    : "Error"}
        </span>
      </header>

      {problem && (
        <div
          role="alert"
          data-testid="activity-problem"
          className="rounded-lg border border-danger/40 bg-danger/10 p-4 text-sm"
        >
          {problem}
        </div>
      )}

      {(phase === "signed-out" || phase === "error") && (
        <button
          type="button"
          onClick={() => void start()}
          className="self-start rounded-md bg-blurple px-4 py-2 font-medium text-white hover:bg-blurple-dark"
        >
          Sign in with Discord
        </button>
      )}

      {user && (
        <section aria-label="You" className="flex items-center gap-3 rounded-lg bg-surface-raised p-4">
          <Avatar label={user.global_name ?? user.username} />
          <div>
            <div className="font-medium" data-testid="activity-user">
              {user.global_name ?? user.username}
            </div>
            <div className="text-sm text-ink-muted">@{user.username}</div>
          </div>
        </section>
      )}

      {phase === "ready" && (
        <section aria-label="Where you are" className="grid gap-3 sm:grid-cols-2">
          <div className="flex items-center gap-3 rounded-lg bg-surface-raised p-4">
            {guild?.icon ? (
              // eslint-disable-next-line @next/next/no-img-element
              <img src={`${cdnBase}/icons/${guild.id}/${guild.icon}.png`} alt="" className="size-12 rounded-2xl" />
            ) : (
              <Avatar label={guild?.name ?? "?"} square />
            )}
            <div>
              <div className="text-xs uppercase tracking-wide text-ink-muted">Server</div>
              <div className="font-medium" data-testid="activity-guild">
                {guild?.name ?? "Not in a server (DM or group DM)"}
              </div>
            </div>
          </div>
          <div className="rounded-lg bg-surface-raised p-4">
            <div className="text-xs uppercase tracking-wide text-ink-muted">Channel</div>
            <div className="font-medium" data-testid="activity-channel">
              {channel?.name ?? "Unknown channel"}
            </div>
          </div>
        </section>
      )}

      {phase === "ready" && (
        <section aria-label="Voice" className="rounded-lg bg-surface-raised p-4">
          <h2 className="mb-2 font-medium">Who is speaking</h2>
          {voice === "needs-permission" && (
            <div className="flex flex-wrap items-center gap-3 text-sm">
              <p data-testid="voice-needs-permission">
                Seeing who speaks needs the &quot;rpc.voice.read&quot; permission, which this Activity doesn&apos;t have
                yet.
              </p>
              <button
                type="button"
                onClick={() => void allowVoice()}
                className="rounded-md bg-blurple px-3 py-1.5 font-medium text-white hover:bg-blurple-dark"
              >
                Allow voice activity
              </button>
            </div>
          )}
          {voice === "unavailable" && <p className="text-sm text-ink-muted">Not launched from a voice channel.</p>}
          {voice === "listening" && (
            <ul data-testid="speaking-list" className="flex flex-wrap gap-2 text-sm">
              {speaking.length === 0 && <li className="text-ink-muted">Nobody is speaking.</li>}
              {speaking.map((id) => (
                <li
                  key={id}
                  data-testid="speaking-user"
                  className="rounded-full bg-success/20 px-3 py-1 ring-2 ring-success"
                >
                  {id === user?.id ? `${user.global_name ?? user.username} (you)` : id}
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </Shell>
  );
}

function Shell({ children }: { children: React.ReactNode }) {
  return <main className="mx-auto flex min-h-screen max-w-2xl flex-col gap-4 p-6">{children}</main>;
}

function Avatar({ label, square = false }: { label: string; square?: boolean }) {
  const initials = label
    .split(/\s+/)
    .map((w) => w[0])
    .join("")
    .slice(0, 2)
    .toUpperCase();
  return (
    <div
      aria-hidden
      className={`flex size-12 items-center justify-center bg-blurple font-semibold text-white ${square ? "rounded-2xl" : "rounded-full"}`}
    >
      {initials}
    </div>
  );
}
