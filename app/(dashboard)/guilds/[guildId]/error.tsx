"use client";

// A section failed to load (the API answered an error or could not be reached): say so in words, what to try, and
// the digest, inside the guild shell so the other sections stay one click away.
import { ErrorReport } from "@/components/ui/error-report";

export default function SectionError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <ErrorReport title="This section could not be loaded" error={error} reset={reset} />;
}
