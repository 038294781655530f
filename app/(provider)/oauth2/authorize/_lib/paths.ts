// The authorize page's own URL with one-shot notices. Notices are codes, never text from the URL, so nobody can
// put words of their choosing on the provider's page.
export type InstallErrorCode = "no_guild" | "forbidden" | "unavailable";

export const INSTALL_ERRORS: Record<InstallErrorCode, string> = {
  no_guild: "Choose a server to add the bot to.",
  forbidden: "You need Manage Server in that server to add a bot to it.",
  unavailable: "The bot can't be added to that server right now.",
};

export const installErrorMessage = (code: string | undefined): string | null =>
  code && code in INSTALL_ERRORS ? INSTALL_ERRORS[code as InstallErrorCode] : null;

const NOTICE_PARAMS = ["login_error", "install_error", "retry_after"];

/** /oauth2/authorize with the request's query, old notices dropped and `extra` added. */
export function authorizePath(query: string, extra?: Record<string, string>): string {
  const params = new URLSearchParams(query);
  for (const name of NOTICE_PARAMS) params.delete(name);
  for (const [name, value] of Object.entries(extra ?? {})) params.set(name, value);
  return `/oauth2/authorize?${params}`;
}

/** The request's query as the page received it (first value of each name), notices dropped. */
export function requestQueryString(query: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query))
    if (value !== undefined && !NOTICE_PARAMS.includes(name)) params.set(name, value);
  return params.toString();
}
