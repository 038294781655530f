// Step one: the user signs in to the provider (username + password). The authorization request rides along in
// a hidden field and comes back unchanged.
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { signInAction } from "../actions";
import { Notice } from "./authorize-shell";
import { SubmitButton } from "./submit-button";

export function SignInForm({ query, error, appName }: { query: string; error: string | null; appName: string }) {
  const failed = error !== null;
  return (
    <form action={signInAction} className="flex flex-col gap-4" aria-describedby="sign-in-why">
      <input type="hidden" name="query" value={query} />
      <p id="sign-in-why" className="text-sm text-ink-muted">
        Sign in to Guildhall to continue to {appName}.
      </p>
      {error && <Notice>{error}</Notice>}
      <Field id="username" label="Username">
        <Input
          id="username"
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          autoFocus
          aria-invalid={failed || undefined}
        />
      </Field>
      <Field id="password" label="Password">
        <Input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          aria-invalid={failed || undefined}
        />
      </Field>
      <SubmitButton className="mt-1 w-full">Sign in</SubmitButton>
    </form>
  );
}
