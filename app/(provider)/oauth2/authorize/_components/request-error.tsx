// An authorization request that can't go on (unknown client, unregistered redirect URI, bad parameters): shown here,
// never redirected, since the redirect target is not trusted.
import { Icons } from "@/components/ui/icons";
import { AuthorizeShell } from "./authorize-shell";

export function RequestError({ error, description }: { error: string; description: string }) {
  return (
    <AuthorizeShell labelledBy="request-error-heading">
      <div className="flex flex-col items-center gap-3 text-center">
        <span aria-hidden className="flex size-14 items-center justify-center rounded-full bg-danger/15 text-danger">
          <Icons.alert className="size-7" />
        </span>
        <h1 id="request-error-heading" className="text-xl font-semibold">
          This authorization request can&apos;t be completed
        </h1>
      </div>
      <div role="alert" className="flex flex-col gap-1 rounded-lg border border-danger/40 bg-danger/10 p-3 text-sm">
        <p>{description}</p>
        <p className="font-mono text-xs text-ink-muted">error: {error}</p>
      </div>
      <p className="text-sm text-ink-muted">
        Nothing was shared and you were not redirected. Go back to the application and try again, or tell its developer.
      </p>
    </AuthorizeShell>
  );
}
