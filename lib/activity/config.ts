// The sample Activity's configuration. The Activity is its own OAuth2 application, never the dashboard's: a code its
// backend redeems can then carry only what a user granted to the Activity (issue 29, finding 5). The client id is
// public (it ships to the browser); the client secret is read only here, on the server, from ACTIVITY_CLIENT_SECRET
// (or, in development, the demo secrets kept beside the database), and never reaches a client bundle.
import "server-only";
import { readDemoSecrets } from "@/lib/seed/demo-secrets";

export interface ActivityConfig {
  clientId: string;
  clientSecret: string;
  /** The guild API base the backend exchanges codes at, e.g. http://127.0.0.1:3000/api or https://discord.com/api */
  apiBase: string;
}

export function activityConfig(): ActivityConfig | null {
  const demo = process.env.ACTIVITY_CLIENT_ID ? null : readDemoSecrets();
  const clientId = process.env.ACTIVITY_CLIENT_ID ?? demo?.activityApplicationId;
  const clientSecret = process.env.ACTIVITY_CLIENT_SECRET ?? demo?.activityClientSecret;
  if (!clientId || !clientSecret) return null;
  const apiBase = (
    process.env.ACTIVITY_API_URL ??
    process.env.GUILD_API_URL ??
    `http://127.0.0.1:${process.env.PORT ?? 3000}/api`
  ).replace(/\/$/, "");
  return { clientId, clientSecret, apiBase };
}

/** The client id alone, safe to render into the page. */
export function activityClientId(): string | null {
  return process.env.ACTIVITY_CLIENT_ID ?? readDemoSecrets()?.activityApplicationId ?? null;
}
