// The invite landing page (/invite/{code}, a guild's vanity code too), as discord.com/invite/{code}: the server's icon,
// name, description, member and online counts, who invited, when the invite expires, and Join, which signs in through
// the built-in provider with guilds.join and accepts the invite. Membership screening is shown when the server has it.
// Unknown, expired, used-up and paused invites get their own page; the server answers them 404, 410, 410 and 403
// (INVITE_LANDING_STATUS, set in lib/server since a Next page cannot). Part of the provider: it reads the service.
import type { Metadata } from "next";
import Link from "next/link";
import { cookies } from "next/headers";
import { Avatar } from "@/components/ui/avatar";
import { buttonClasses } from "@/components/ui/button";
import { RelativeTime } from "@/components/ui/relative-time";
import { PROVIDER_SESSION_COOKIE, readProviderSession } from "@/lib/guild-api/provider-session";
import { inviteLanding } from "@/lib/guild-api/services/invite-landing";
import { AuthorizeShell, Notice } from "../../oauth2/authorize/_components/authorize-shell";
import { ScreeningForm } from "./_components/screening-form";

export const metadata: Metadata = { title: "Invite", robots: { index: false } };
export const dynamic = "force-dynamic";

const CODE = /^[A-Za-z0-9-]{1,32}$/;
const when = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" });

/** What ?join=… (set by /join/callback) says. */
const JOIN_OUTCOMES: Record<string, { text: string; tone: "success" | "danger" | "warning" }> = {
  joined: { text: "You joined the server.", tone: "success" },
  already: { text: "You are already a member of this server.", tone: "success" },
  screened: { text: "Thanks: you agreed to the rules and can now take part.", tone: "success" },
  cancelled: { text: "You cancelled signing in; nothing changed.", tone: "warning" },
  banned: { text: "You are banned from this server, so you can't join it.", tone: "danger" },
  paused: { text: "Invites to this server are paused; try again later.", tone: "danger" },
  "not-allowed": { text: "This invite is only for certain people, and you are not one of them.", tone: "danger" },
  gone: { text: "This invite stopped working before you joined.", tone: "danger" },
  "in-discord": {
    text: "This invite has limits only Discord's own join can apply (uses, temporary membership or roles): open it in Discord.",
    tone: "warning",
  },
  "expired-request": { text: "That sign-in took too long or came from elsewhere. Try Join again.", tone: "warning" },
  failed: { text: "Joining didn't work. Try again.", tone: "danger" },
};

/** The invite as of now (the page's clock for "expires in"). */
async function readLanding(code: string, viewerId: bigint | null) {
  const now = Date.now();
  return { now, landing: CODE.test(code) ? await inviteLanding(code, viewerId, now) : ({ kind: "unknown" } as const) };
}

function Gone({ title, note, children }: { title: string; note?: string; children: React.ReactNode }) {
  return (
    <AuthorizeShell labelledBy="invite-heading">
      {note && (
        <p role="status" className="rounded-lg bg-success/10 px-3 py-2.5 text-center text-sm">
          {note}
        </p>
      )}
      <div className="flex flex-col items-center gap-3 text-center">
        <h1 id="invite-heading" className="text-xl font-semibold">
          {title}
        </h1>
        <p className="text-sm text-ink-muted">{children}</p>
        <Link href="/" className={buttonClasses("secondary")}>
          Go to Guildhall
        </Link>
      </div>
    </AuthorizeShell>
  );
}

export default async function InvitePage({
  params,
  searchParams,
}: {
  params: Promise<{ code: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { code } = await params;
  const query = await searchParams;
  const viewerId = readProviderSession((await cookies()).get(PROVIDER_SESSION_COOKIE)?.value);
  const { landing, now } = await readLanding(code, viewerId);
  const outcome = JOIN_OUTCOMES[typeof query.join === "string" ? query.join : ""];
  // Joining may have taken the invite's last use: the page then says both.
  const joinedNote = outcome?.tone === "success" ? outcome.text : undefined;

  if (landing.kind === "unknown")
    return (
      <Gone title="This invite is invalid">
        There is no invite <code className="font-mono">{code}</code>. Check the link, or ask for a new one.
      </Gone>
    );
  if (landing.kind === "expired")
    return (
      <Gone title="This invite has expired" note={joinedNote}>
        It stopped working on {when.format(landing.expiredAt)} UTC. Ask whoever sent it for a new one.
      </Gone>
    );
  if (landing.kind === "used-up")
    return (
      <Gone title="This invite has been used up" note={joinedNote}>
        It could be used {landing.maxUses} time{landing.maxUses === 1 ? "" : "s"}, and all were taken. Ask for a new
        one.
      </Gone>
    );

  const { invite, screening, member, pending } = landing;
  const guild = invite.guild!;
  const iconUrl = guild.icon ? `/cdn/icons/${guild.id}/${guild.icon}.png?size=128` : null;
  const inviter = invite.inviter;
  const paused = landing.kind === "paused";
  const expires = invite.expires_at ? Date.parse(invite.expires_at) : null;

  return (
    <AuthorizeShell labelledBy="invite-heading">
      <div className="flex flex-col items-center gap-3 text-center">
        {inviter ? (
          <p className="flex items-center gap-2 text-sm text-ink-muted">
            <Avatar
              src={inviter.avatar ? `/cdn/avatars/${inviter.id}/${inviter.avatar}.png` : null}
              name={inviter.global_name ?? inviter.username}
              id={inviter.id}
              size={20}
            />
            <span>
              <strong className="text-ink">{inviter.global_name ?? inviter.username}</strong> invited you to join
            </span>
          </p>
        ) : (
          <p className="text-sm text-ink-muted">You have been invited to join</p>
        )}
        <Avatar src={iconUrl} name={guild.name} id={guild.id} size={72} rounded="xl" />
        <h1 id="invite-heading" className="text-2xl font-semibold">
          {guild.name}
        </h1>
        {guild.description && <p className="text-sm text-ink-muted">{guild.description}</p>}
        <p className="flex flex-wrap justify-center gap-x-4 gap-y-1 text-sm" aria-label="Members">
          <span className="flex items-center gap-1.5">
            <span aria-hidden className="inline-block size-2 rounded-full bg-success" />
            {(invite.approximate_presence_count ?? 0).toLocaleString("en-US")} online
          </span>
          <span className="flex items-center gap-1.5">
            <span aria-hidden className="inline-block size-2 rounded-full bg-ink-muted" />
            {(invite.approximate_member_count ?? 0).toLocaleString("en-US")} members
          </span>
        </p>
        <p className="text-xs text-ink-muted">
          {invite.channel ? `Into #${invite.channel.name}` : null}
          {invite.channel ? " · " : null}
          {expires === null ? (
            "This invite never expires"
          ) : (
            <>
              Expires <RelativeTime iso={invite.expires_at!} now={now} />
            </>
          )}
        </p>
      </div>

      {outcome &&
        (outcome.tone === "success" ? (
          <p role="status" className="rounded-lg bg-success/10 px-3 py-2.5 text-center text-sm">
            {outcome.text}
          </p>
        ) : (
          <Notice tone={outcome.tone}>{outcome.text}</Notice>
        ))}

      {paused ? (
        <Notice tone="warning">
          This server has paused its invites: nobody can join right now. Try the link again later.
        </Notice>
      ) : member ? (
        pending && screening ? (
          <ScreeningForm code={code} guildName={guild.name} rules={guild.welcome_screen?.description ?? null} />
        ) : (
          <p className="rounded-lg bg-success/10 px-3 py-2.5 text-center text-sm" role="status">
            You are a member of {guild.name}.
          </p>
        )
      ) : (
        <div className="flex flex-col gap-2">
          {screening && (
            <p className="text-xs text-ink-muted">
              This server uses membership screening: after joining, you agree to its rules before you can take part.
            </p>
          )}
          <a href={`/invite/${encodeURIComponent(code)}/join`} className={buttonClasses("primary", "md", "w-full")}>
            Join {guild.name}
          </a>
          <p className="text-center text-xs text-ink-muted">
            You sign in with Guildhall and allow it to add you to servers (guilds.join).
          </p>
        </div>
      )}
    </AuthorizeShell>
  );
}
