// The browser's side of a guild's live stream (GET /guilds/{id}/live, Server-Sent Events), shared by every tab of the
// browser that has a page of the guild open. A browser allows about six connections per origin over HTTP/1.1, and
// each stream holds one for as long as the page is open: with a stream per tab the seventh tab's requests would wait
// behind the others' streams. So one tab per guild, the leader, holds the stream and relays what it hears to the
// other tabs over a BroadcastChannel; the leader is chosen with the Web Locks API (the tab holding the guild's lock;
// when it closes or leaves the guild the browser hands the lock to the next tab waiting, which opens the stream).
// Where either API is missing, each tab holds its own stream, as before.
import type { AffectedSections } from "./changes";

/** What the stream says about the guild's live updates (the server's states, see lib/dashboard/live/hub.ts). */
export type LiveStreamState = "connecting" | "live" | "not-followed" | "off";

export interface LiveChangeMessage {
  sections: AffectedSections;
  actors: Array<{ id: string; name: string }>;
}

export type LiveStreamEvent =
  /** The stream (re)connected: after the first time, changes made while it was down were not heard. */
  | { kind: "opened" }
  | { kind: "state"; state: LiveStreamState }
  | { kind: "change"; message: LiveChangeMessage }
  /** The moderator lost access (removed, banned, signed out): the stream has ended. */
  | { kind: "revoked" };

export type LiveStreamListener = (event: LiveStreamEvent) => void;

/** What tabs say to each other on the guild's channel, besides relayed events. */
type ChannelMessage =
  | LiveStreamEvent
  /** A tab that starts following asks the leader where the stream stands. */
  | { kind: "hello" }
  /** The leader's answer: whether its stream is open, and the last state it heard. */
  | { kind: "welcome"; open: boolean; state: LiveStreamState | null };

// Per moderator as well as per guild: after a sign-out and another moderator's sign-in in one browser, a tab still
// leading with the first moderator's stream must not relay that stream's notices (actors' names) to the second's tabs.
const lockName = (viewerId: string, guildId: string) => `guildhall-live:${viewerId}:${guildId}`;

/** Follows a guild's live stream as the signed-in moderator `viewerId`; returns the function that stops following. */
export function followGuildStream(guildId: string, viewerId: string, listener: LiveStreamListener): () => void {
  const canShare =
    typeof BroadcastChannel === "function" && typeof navigator !== "undefined" && navigator.locks !== undefined;
  return canShare ? followShared(lockName(viewerId, guildId), guildId, listener) : openStream(guildId, listener);
}

/** One EventSource for this tab, its events translated for the listener. Returns close. */
function openStream(guildId: string, emit: LiveStreamListener): () => void {
  const source = new EventSource(`/guilds/${guildId}/live`);
  source.addEventListener("open", () => emit({ kind: "opened" }));
  source.addEventListener("state", (event) => {
    const { state } = JSON.parse((event as MessageEvent<string>).data) as { state: LiveStreamState };
    emit({ kind: "state", state });
  });
  source.addEventListener("change", (event) => {
    emit({ kind: "change", message: JSON.parse((event as MessageEvent<string>).data) as LiveChangeMessage });
  });
  source.addEventListener("revoked", () => {
    source.close();
    emit({ kind: "revoked" });
  });
  source.addEventListener("error", () => {
    // CLOSED: the server refused the stream for good (204: no gateway connection to follow), so EventSource will not
    // try again. Otherwise it reconnects on its own within seconds, the server says the state again, and "opened"
    // has the page read what it missed: the indicator keeps the last state meanwhile.
    if (source.readyState === EventSource.CLOSED) emit({ kind: "state", state: "off" });
  });
  return () => source.close();
}

function followShared(sharedName: string, guildId: string, listener: LiveStreamListener): () => void {
  const channel = new BroadcastChannel(sharedName);
  const stopWaiting = new AbortController();
  let leading = false;
  let streamOpen = false;
  let lastState: LiveStreamState | null = null;
  let stopLeading: (() => void) | null = null;

  const hear = (event: LiveStreamEvent) => {
    if (event.kind === "state") lastState = event.state;
    listener(event);
  };

  channel.onmessage = ({ data }: MessageEvent<ChannelMessage>) => {
    if (data.kind === "hello") {
      if (leading)
        channel.postMessage({ kind: "welcome", open: streamOpen, state: lastState } satisfies ChannelMessage);
    } else if (data.kind === "welcome") {
      // Counted as this tab's first "opened": the page was rendered after the stream opened, so nothing was missed.
      if (data.open) hear({ kind: "opened" });
      if (data.state) hear({ kind: "state", state: data.state });
    } else if (!leading) {
      hear(data);
    }
  };

  navigator.locks
    .request(
      sharedName,
      { signal: stopWaiting.signal },
      () =>
        // Held until this tab stops following: the promise resolves then, and the browser passes the lock on.
        new Promise<void>((resolve) => {
          leading = true;
          const close = openStream(guildId, (event) => {
            if (event.kind === "opened") streamOpen = true;
            if (event.kind === "revoked" || (event.kind === "state" && event.state === "off")) streamOpen = false;
            channel.postMessage(event satisfies ChannelMessage);
            hear(event);
          });
          stopLeading = () => {
            close();
            resolve();
          };
        }),
    )
    // Aborted while waiting (the tab stopped following before its turn came): nothing to release.
    .catch(() => undefined);
  channel.postMessage({ kind: "hello" } satisfies ChannelMessage);

  return () => {
    stopWaiting.abort();
    stopLeading?.();
    channel.close();
  };
}
