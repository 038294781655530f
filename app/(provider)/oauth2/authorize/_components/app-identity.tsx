// Who asks and who answers: the application's icon (initials when it has none) linked to the signed-in user's avatar.
import { Avatar } from "@/components/ui/avatar";

export interface IdentityUser {
  id: string;
  username: string;
  displayName: string;
  avatarUrl: string | null;
}

export function AppIdentity({
  app,
  user,
  headingId,
  subtitle,
}: {
  app: { id: string; name: string; iconUrl: string | null };
  user: IdentityUser | null;
  headingId: string;
  subtitle: string;
}) {
  return (
    <header className="flex flex-col items-center gap-3 text-center">
      <div className="flex items-center gap-3">
        <Avatar src={app.iconUrl} name={app.name} id={app.id} size={64} rounded="xl" className="shadow-md" />
        {user && (
          <>
            <span aria-hidden className="flex items-center gap-1 text-ink-muted">
              <span className="size-1.5 rounded-full bg-current" />
              <span className="size-1.5 rounded-full bg-current" />
              <span className="size-1.5 rounded-full bg-current" />
            </span>
            <Avatar src={user.avatarUrl} name={user.displayName} id={user.id} size={64} className="shadow-md" />
          </>
        )}
      </div>
      <div className="flex flex-col gap-1">
        <p className="text-xs font-semibold uppercase tracking-wide text-ink-muted">An external application</p>
        <h1 id={headingId} className="text-2xl font-bold">
          {app.name}
        </h1>
        <p className="text-sm text-ink-muted">{subtitle}</p>
      </div>
    </header>
  );
}
