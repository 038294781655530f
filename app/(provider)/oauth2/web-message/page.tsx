// Delivers an authorization result to the window that opened the consent page (response_mode=web_message),
// as an embedded client does for the SDK's AUTHORIZE: no redirect URI, the code goes to a registered origin.
import { findApplication } from "@/lib/guild-api/services/oauth2";
import { redirectUrisOf } from "@/lib/guild-api/store/applications";
import { PostToOpener } from "./_components/post-to-opener";

export const dynamic = "force-dynamic";

export default async function WebMessagePage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const query = Object.fromEntries(
    Object.entries(await searchParams).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]),
  ) as Record<string, string | undefined>;
  const application = query.client_id ? await findApplication(query.client_id) : undefined;
  const origins = application ? redirectUrisOf(application).map((uri) => new URL(uri).origin) : [];
  if (!query.origin || !origins.includes(query.origin)) {
    return <main className="p-8">This origin is not registered for the application.</main>;
  }
  const message = {
    type: "guildhall:oauth2",
    code: query.code,
    state: query.state,
    error: query.error,
    error_description: query.error_description,
  };
  return (
    <main className="p-8 text-center text-ink-muted">
      <p>
        {query.code ? "Authorized. You can close this window." : "Authorization cancelled. You can close this window."}
      </p>
      <PostToOpener message={message} origin={query.origin} />
    </main>
  );
}
