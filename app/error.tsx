"use client";

// Any other page that failed on the server or in the browser (the guild's sections have their own, in the shell).
import { ErrorReport } from "@/components/ui/error-report";

export default function PageError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main className="mx-auto max-w-2xl p-6">
      <ErrorReport title="This page could not be loaded" error={error} reset={reset} />
    </main>
  );
}
