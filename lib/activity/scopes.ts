// The scopes the sample Activity asks for, shared by the browser (the SDK's authorize) and its backend, which
// refuses a token carrying any other (issue 29, finding 5). rpc.voice.read is asked for only when the user allows
// seeing who speaks.
export const ACTIVITY_BASE_SCOPES = ["identify", "guilds", "applications.commands"] as const;
export const ACTIVITY_VOICE_SCOPE = "rpc.voice.read";
export const ACTIVITY_SCOPES: readonly string[] = [...ACTIVITY_BASE_SCOPES, ACTIVITY_VOICE_SCOPE];
