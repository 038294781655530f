"use client";

// A section failed to load (the API answered an error or could not be reached): say so, offer a retry.
import { Button } from "@/components/ui/button";

export default function SectionError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div role="alert" className="rounded-lg border border-danger/40 bg-danger/10 p-6">
      <h2 className="text-lg font-semibold">This section could not be loaded</h2>
      <p className="mt-1 text-sm text-ink-muted">{error.message || "The guild API did not answer as expected."}</p>
      <Button className="mt-4" variant="secondary" onClick={reset}>
        Try again
      </Button>
    </div>
  );
}
