"use client";

// What a page that failed says (the error boundaries' one body): what happened in words, what to try, and the
// digest. In production Next replaces a server error's message with a generic one and keeps only its digest, which
// is also in the server's log: the digest is what a moderator quotes and an operator searches for.
import { Button } from "./button";

export function describeError(error: Error & { digest?: string }): string {
  // A server error reaches the browser redacted (it has a digest); only a client-side error's message is its own.
  if (!error.digest && error.message) return error.message;
  return "The server could not build this page: the guild API did not answer as expected, or the page failed on the server.";
}

/**
 * What to tell the server's operator. A server error has a digest (shown below), which is in the server's log; an
 * error raised in this browser has none and never reached the server: its message (shown above) is what to quote.
 */
export function reportAdvice(error: Error & { digest?: string }): string {
  return error.digest
    ? "If it still fails, tell the server's operator the reference below."
    : "If it still fails, tell the server's operator the message above and what you were doing.";
}

export function ErrorReport({
  title,
  error,
  reset,
}: {
  title: string;
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <div role="alert" className="rounded-lg border border-danger/40 bg-danger/10 p-6">
      <h2 className="text-lg font-semibold">{title}</h2>
      <p className="mt-1 text-sm">{describeError(error)}</p>
      <p className="mt-3 text-sm font-medium">What to try</p>
      <ul className="mt-1 list-disc pl-5 text-sm text-ink-muted">
        <li>Try again: a busy or restarting server often answers the second time.</li>
        <li>Reload the page, or sign out and in again if it keeps failing.</li>
        <li>{reportAdvice(error)}</li>
      </ul>
      {error.digest && (
        <p className="mt-3 text-sm">
          Reference: <code className="rounded bg-surface-sunken px-1 font-mono">{error.digest}</code> (in the
          server&apos;s log)
        </p>
      )}
      <Button className="mt-4" variant="secondary" onClick={reset}>
        Try again
      </Button>
    </div>
  );
}
