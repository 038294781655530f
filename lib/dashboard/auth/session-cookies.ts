// The names a dashboard request's session travels under, shared by the pages' session check (session.ts) and the
// one-process server's front door (lib/server/dashboard-door.ts), which runs before Next and outside its bundles.

/** next-auth's database-session cookie: the secure name over HTTPS, the plain one otherwise. */
export const SESSION_COOKIES = ["__Secure-next-auth.session-token", "next-auth.session-token"] as const;

/** Set by the server's front door: the path and query the browser asked for, so sign-in can send the person back. */
export const REQUEST_URL_HEADER = "x-guildhall-url";
