// A Discord client stand-in for the embedded-app-sdk's postMessage protocol (SDK 2.5.0; see
// shared/notes/embedded-app-sdk-protocol.md). It answers HANDSHAKE with READY, runs AUTHORIZE through the
// built-in provider's consent page (a popup delivering the code by web_message), validates AUTHENTICATE
// against the guild API (/oauth2/@me), answers GET_CHANNEL from the API, tracks SPEAKING subscriptions and
// CAPTURE_LOG, and answers unknown commands with an ERROR event. Scope rules follow Discord's docs.
(() => {
  const params = new URLSearchParams(location.search);
  const activityUrl = new URL(params.get("activity"));
  const activityOrigin = activityUrl.origin;
  const providerOrigin = params.get("provider") || activityOrigin;
  const apiBase = params.get("api") || `${providerOrigin}/api/v10`;
  const clientId = params.get("client_id");
  const guildId = params.get("guild_id");
  const channelId = params.get("channel_id");
  const frameId = crypto.randomUUID();
  const instanceId = `i-${Date.now()}`;

  const OP = { HANDSHAKE: 0, FRAME: 1, CLOSE: 2 };
  const ERR = {
    INVALID_PAYLOAD: 4000,
    INVALID_COMMAND: 4002,
    INVALID_EVENT: 4004,
    INVALID_CHANNEL: 4005,
    INVALID_PERMISSIONS: 4006,
    INVALID_CLIENTID: 4007,
    INVALID_TOKEN: 4009,
    INVALID_USER: 4010,
    OAUTH2_ERROR: 5000,
  };
  const state = {
    phase: "WAIT_HANDSHAKE",
    scopes: [],
    token: null,
    user: null,
    subscriptions: new Set(),
    trace: [],
    logs: [],
    closed: null,
  };
  const iframe = document.getElementById("activity");

  function record(direction, message) {
    state.trace.push({ direction, message });
    const li = document.createElement("li");
    li.textContent = `${direction} ${JSON.stringify(message).slice(0, 300)}`;
    document.getElementById("trace").appendChild(li);
  }
  function setPhase(phase) {
    state.phase = phase;
    document.getElementById("phase").textContent = phase;
  }
  function post(message) {
    record("→", message);
    iframe.contentWindow.postMessage(message, activityOrigin);
  }
  const reply = (cmd, nonce, data) => post([OP.FRAME, { cmd, evt: null, nonce, data }]);
  const fail = (cmd, nonce, code, message) => post([OP.FRAME, { cmd, evt: "ERROR", nonce, data: { code, message } }]);
  const dispatch = (evt, data) => post([OP.FRAME, { cmd: "DISPATCH", evt, nonce: null, data }]);

  /** Opens the provider's consent page and resolves with {code} or {error}. */
  function consent(args) {
    return new Promise((resolve) => {
      const url = new URL("/oauth2/authorize", providerOrigin);
      url.searchParams.set("client_id", args.client_id);
      url.searchParams.set("response_type", "code");
      url.searchParams.set("scope", args.scope.join(" "));
      if (args.state) url.searchParams.set("state", args.state);
      if (args.code_challenge) {
        url.searchParams.set("code_challenge", args.code_challenge);
        url.searchParams.set("code_challenge_method", args.code_challenge_method || "S256");
      }
      url.searchParams.set("response_mode", "web_message");
      url.searchParams.set("web_message_origin", location.origin);
      // A fresh window each time: reusing a name would navigate a consent window that is still closing
      // (after a denial) instead of opening a new one.
      const popup = window.open(url.toString(), "_blank", "popup,width=520,height=720");
      function onMessage(event) {
        if (
          event.origin !== providerOrigin ||
          event.source !== popup ||
          !event.data ||
          event.data.type !== "guildhall:oauth2"
        )
          return;
        window.removeEventListener("message", onMessage);
        clearInterval(closedPoll);
        resolve(event.data);
      }
      window.addEventListener("message", onMessage);
      // A window closed without an answer means the user gave up. The answer may still be in flight when
      // the consent page closes itself, so wait a moment before calling it a denial.
      const closedPoll = setInterval(() => {
        if (!popup || !popup.closed) return;
        clearInterval(closedPoll);
        setTimeout(() => {
          window.removeEventListener("message", onMessage);
          resolve({ error: "access_denied", error_description: "The consent window was closed." });
        }, 1000);
      }, 250);
    });
  }

  async function api(path, token) {
    const response = await fetch(`${apiBase}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return { ok: response.ok, status: response.status, body: await response.json().catch(() => null) };
  }

  const handlers = {
    async AUTHORIZE(args, nonce) {
      if (!args || args.client_id !== clientId)
        return fail("AUTHORIZE", nonce, ERR.INVALID_CLIENTID, "Invalid client id");
      if (!Array.isArray(args.scope) || args.scope.length === 0)
        return fail("AUTHORIZE", nonce, ERR.INVALID_PAYLOAD, "scope must be a non-empty array");
      const result = await consent(args);
      if (result.code) return reply("AUTHORIZE", nonce, { code: result.code });
      return fail(
        "AUTHORIZE",
        nonce,
        ERR.OAUTH2_ERROR,
        `OAuth2 Error: ${result.error}${result.error_description ? `: ${result.error_description}` : ""}`,
      );
    },
    async AUTHENTICATE(args, nonce) {
      if (!args || typeof args.access_token !== "string")
        return fail("AUTHENTICATE", nonce, ERR.INVALID_TOKEN, "Invalid access token");
      const me = await api("/oauth2/@me", args.access_token);
      if (!me.ok || !me.body || me.body.application.id !== clientId)
        return fail("AUTHENTICATE", nonce, ERR.INVALID_TOKEN, "Invalid access token");
      if (!me.body.user)
        return fail("AUTHENTICATE", nonce, ERR.INVALID_USER, "The token has no user (identify scope missing)");
      state.token = args.access_token;
      state.user = me.body.user;
      state.scopes = me.body.scopes;
      document.getElementById("scopes").textContent = state.scopes.join(" ");
      setPhase("AUTHENTICATED");
      const { id, username, discriminator, avatar, global_name, public_flags } = me.body.user;
      return reply("AUTHENTICATE", nonce, {
        access_token: args.access_token,
        user: { id, username, discriminator, avatar, global_name, public_flags: public_flags ?? 0 },
        scopes: me.body.scopes,
        expires: me.body.expires,
        application: {
          id: me.body.application.id,
          name: me.body.application.name,
          description: me.body.application.description ?? "",
          icon: me.body.application.icon ?? null,
        },
      });
    },
    async GET_CHANNEL(args, nonce) {
      if (state.phase !== "AUTHENTICATED" || !state.scopes.includes("guilds"))
        return fail("GET_CHANNEL", nonce, ERR.INVALID_PERMISSIONS, "Not authenticated or invalid scope");
      const channels = await api(`/guilds/${guildId}/channels`, state.token);
      const channel = channels.ok ? channels.body.find((c) => c.id === args.channel_id) : null;
      if (!channel) return fail("GET_CHANNEL", nonce, ERR.INVALID_CHANNEL, "Invalid channel");
      return reply("GET_CHANNEL", nonce, {
        id: channel.id,
        type: channel.type,
        guild_id: guildId,
        name: channel.name,
        topic: channel.topic ?? null,
        bitrate: channel.bitrate ?? null,
        user_limit: channel.user_limit ?? null,
        position: channel.position ?? null,
        voice_states: [],
        messages: [],
      });
    },
    async SUBSCRIBE(args, nonce, evt) {
      if (evt !== "SPEAKING_START" && evt !== "SPEAKING_STOP")
        return fail("SUBSCRIBE", nonce, ERR.INVALID_EVENT, `Invalid event: ${evt}`);
      if (state.phase !== "AUTHENTICATED" || !state.scopes.includes("rpc.voice.read"))
        return fail("SUBSCRIBE", nonce, ERR.INVALID_PERMISSIONS, "Not authenticated or invalid scope");
      if (!args || args.channel_id !== channelId)
        return fail("SUBSCRIBE", nonce, ERR.INVALID_CHANNEL, "Invalid channel");
      state.subscriptions.add(evt);
      return reply("SUBSCRIBE", nonce, { evt });
    },
    async UNSUBSCRIBE(_args, nonce, evt) {
      state.subscriptions.delete(evt);
      return reply("UNSUBSCRIBE", nonce, { evt });
    },
    async CAPTURE_LOG(args, nonce) {
      state.logs.push(args);
      return reply("CAPTURE_LOG", nonce, null);
    },
  };

  window.addEventListener("message", (event) => {
    if (event.source !== iframe.contentWindow || event.origin !== activityOrigin || !Array.isArray(event.data)) return;
    const [opcode, payload] = event.data;
    if (!(opcode === OP.FRAME && payload && payload.cmd === "CAPTURE_LOG")) record("←", event.data);
    if (opcode === OP.HANDSHAKE) {
      if (payload.v !== 1 || payload.client_id !== clientId || payload.frame_id !== frameId) {
        post([OP.CLOSE, { code: 4000, message: "Invalid handshake" }]);
        return;
      }
      setPhase("READY");
      dispatch("READY", {
        v: 1,
        config: {
          api_endpoint: apiBase.replace(/^https?:/, ""),
          environment: "development",
          cdn_host: new URL(apiBase).host,
        },
      });
      return;
    }
    if (opcode === OP.CLOSE) {
      state.closed = payload;
      return;
    }
    if (opcode !== OP.FRAME) return;
    const handler = handlers[payload.cmd];
    if (state.phase === "WAIT_HANDSHAKE")
      return fail(payload.cmd, payload.nonce, ERR.INVALID_PAYLOAD, "Handshake first");
    if (!handler) return fail(payload.cmd, payload.nonce, ERR.INVALID_COMMAND, `Unknown command: ${payload.cmd}`);
    handler(payload.args, payload.nonce, payload.evt).catch((error) =>
      fail(payload.cmd, payload.nonce, ERR.INVALID_PAYLOAD, String(error)),
    );
  });

  /** Test hooks: speak(user, "start"|"stop") posts a SPEAKING event only when the Activity subscribed to it. */
  window.__sim = {
    state,
    speak(userId, what) {
      const evt = what === "start" ? "SPEAKING_START" : "SPEAKING_STOP";
      if (!state.subscriptions.has(evt)) throw new Error(`The Activity is not subscribed to ${evt}`);
      dispatch(evt, { user_id: userId, channel_id: channelId });
    },
  };

  // Register the listener before loading the Activity, then launch it with the parameters Discord adds.
  activityUrl.searchParams.set("frame_id", frameId);
  activityUrl.searchParams.set("instance_id", instanceId);
  activityUrl.searchParams.set("platform", "desktop");
  if (guildId) activityUrl.searchParams.set("guild_id", guildId);
  if (channelId) activityUrl.searchParams.set("channel_id", channelId);
  iframe.src = activityUrl.toString();
})();
