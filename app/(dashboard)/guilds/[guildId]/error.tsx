"use client";

// A section failed to load (the API answered an error or could not be reached): say so, offer a retry. In
// production Next replaces a server error's message with a generic one and keeps only its digest, which is also
// printed in the server's log: show the digest so a moderator can quote it and an operator can find the cause.
import { Button } from "@/components/ui/button";

const GENERIC = "The guild API did not answer as expected, or the page failed on the server.";

function describeSectionError(error: Error & { digest?: string }): { message: string; reference?: string } {
  // A server error reaches the browser redacted (it has a digest); only a client-side error's message is its own.
  const message = !error.digest && error.message ? error.message : GENERIC;
  return { message, reference: error.digest };
}

export default function SectionError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const { message, reference } = describeSectionError(error);
  return (
    <div role="alert" className="rounded-lg border border-danger/40 bg-danger/10 p-6">
      <h2 className="text-lg font-semibold">This section could not be loaded</h2>
      <p className="mt-1 text-sm text-ink-muted">{message}</p>
      {reference && (
        <p className="mt-1 text-xs text-ink-muted">
          Reference <code className="font-mono">{reference}</code> (in the server&apos;s log)
        </p>
      )}
      <Button className="mt-4" variant="secondary" onClick={reset}>
        Try again
      </Button>
    </div>
  );
}
