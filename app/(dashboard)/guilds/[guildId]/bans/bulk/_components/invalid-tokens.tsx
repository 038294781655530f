// Tokens that are not user ids, listed back so the moderator can fix their list (the first ones, then a count).
const SHOWN = 30;

export function InvalidTokens({ tokens }: { tokens: readonly string[] }) {
  if (tokens.length === 0) return null;
  return (
    <div className="rounded-md bg-danger/10 p-3 text-sm ring-1 ring-inset ring-danger/30">
      <p className="font-medium">Not user ids, left out:</p>
      <ul aria-label="Invalid tokens" className="mt-1 flex flex-wrap gap-1.5">
        {tokens.slice(0, SHOWN).map((token) => (
          <li
            key={token}
            className="max-w-full truncate rounded bg-surface px-1.5 py-0.5 font-mono text-xs ring-1 ring-line"
          >
            {token}
          </li>
        ))}
        {tokens.length > SHOWN && <li className="text-xs text-ink-muted">and {tokens.length - SHOWN} more</li>}
      </ul>
    </div>
  );
}
