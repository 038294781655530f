// /appeal/{guildId}: a banned user's appeal (issue #32). Signed out: what the page is, and Sign in (identify only).
// Signed in: whether they are banned (read with the guild's acting grant: data/acting-api.ts), the ban's reason when
// the server shows it, their earlier appeals with the moderators' decisions and messages, and the questions to answer
// while they may appeal (one open appeal at a time; a week after a decision). Nothing here reads another user's data.
import type { Metadata } from "next";
import Link from "next/link";
import { cookies } from "next/headers";
import { Badge } from "@/components/ui/badge";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { snowflakeSchema } from "@/lib/dashboard/actions/schemas/common";
import { APPEAL_WAIT_AFTER_DECISION_MS } from "@/lib/dashboard/appeals/schemas";
import { APPELLANT_COOKIE, decodeAppellant } from "@/lib/dashboard/appeals/sign-in";
import { appealsOf, getAppealSettings, type AppealView } from "@/lib/dashboard/appeals/store";
import { appellantBan } from "@/lib/dashboard/appeals/ban-lookup";
import { AppealForm } from "./_components/appeal-form";
import { AppealSignOut } from "./_components/appeal-sign-out";

export const metadata: Metadata = { title: "Ban appeal", robots: { index: false } };

const SIGN_IN_OUTCOMES: Record<string, string> = {
  cancelled: "You cancelled signing in.",
  expired: "That sign-in took too long or came from elsewhere. Sign in again.",
  failed: "Signing in didn't work. Try again.",
};

const when = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" });

function Shell({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card className="flex flex-col gap-4 p-6">
      <h1 className="text-xl font-semibold">{title}</h1>
      {children}
    </Card>
  );
}

/** Until when the user must wait to appeal again (a week after the last decision), or null when they may now. */
function waitingUntil(appeals: AppealView[], now = Date.now()): number | null {
  const lastDecided = appeals.find((a) => a.decidedAt);
  const until = lastDecided ? Date.parse(lastDecided.decidedAt!) + APPEAL_WAIT_AFTER_DECISION_MS : 0;
  return until > now ? until : null;
}

function PastAppeals({ appeals }: { appeals: AppealView[] }) {
  if (appeals.length === 0) return null;
  return (
    <section aria-label="Your appeals" className="flex flex-col gap-3">
      <h2 className="font-semibold">Your appeals</h2>
      {appeals.map((appeal) => (
        <div key={appeal.id} className="rounded-lg border border-line p-3 text-sm">
          <p className="flex flex-wrap items-center gap-2">
            <Badge
              tone={appeal.status === "accepted" ? "success" : appeal.status === "rejected" ? "danger" : "neutral"}
            >
              {appeal.status === "open"
                ? "Waiting for the moderators"
                : appeal.status === "accepted"
                  ? "Accepted"
                  : "Rejected"}
            </Badge>
            <span className="text-ink-muted">sent {when.format(Date.parse(appeal.createdAt))} UTC</span>
          </p>
          {appeal.message && (
            <p className="mt-2">
              <span className="font-medium">The moderators say:</span> {appeal.message}
            </p>
          )}
        </div>
      ))}
    </section>
  );
}

export default async function AppealPage({
  params,
  searchParams,
}: {
  params: Promise<{ guildId: string }>;
  searchParams: Promise<{ signin?: string }>;
}) {
  const { guildId } = await params;
  const { signin } = await searchParams;
  if (!snowflakeSchema.safeParse(guildId).success)
    return (
      <Shell title="No such server">
        <p className="text-sm text-ink-muted">This link does not name a server.</p>
      </Shell>
    );
  const settings = await getAppealSettings(guildId);
  if (!settings.enabled || !settings.actorId)
    return (
      <Shell title="Ban appeal">
        <p className="text-sm text-ink-muted">This server does not take ban appeals here.</p>
      </Shell>
    );
  const appellant = decodeAppellant((await cookies()).get(APPELLANT_COOKIE)?.value);
  const notice = signin ? SIGN_IN_OUTCOMES[signin] : undefined;
  if (!appellant)
    return (
      <Shell title="Appeal a ban">
        {notice && (
          <p role="status" className="rounded-md bg-warning/15 p-3 text-sm">
            {notice}
          </p>
        )}
        <p className="text-sm">
          If you were banned from this server, you can ask its moderators to unban you. Sign in so they know who you
          are: this page asks only for your username, nothing else.
        </p>
        <Link href={`/appeal/${guildId}/sign-in`} className={buttonClasses("primary")} prefetch={false}>
          Sign in to appeal
        </Link>
      </Shell>
    );

  const name = appellant.globalName ?? appellant.username;
  const [ban, appeals] = await Promise.all([
    appellantBan(guildId, settings.actorId, appellant.userId),
    appealsOf(guildId, appellant.userId),
  ]);
  const open = appeals.find((a) => a.status === "open");
  const waitUntil = waitingUntil(appeals);
  return (
    <Shell title="Appeal a ban">
      <p className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <span>
          Signed in as <strong>{name}</strong> (@{appellant.username})
        </span>
        <AppealSignOut />
      </p>
      {"unknown" in ban ? (
        <p role="alert" className="text-sm text-danger">
          {ban.unknown}
        </p>
      ) : !ban.banned ? (
        <p className="text-sm">You are not banned from this server: there is nothing to appeal.</p>
      ) : (
        <>
          {settings.showReason && (
            <p className="text-sm">
              <span className="font-medium">Why you were banned:</span> {ban.reason ?? "no reason was given."}
            </p>
          )}
          {open ? (
            <p role="status" className="text-sm">
              Your appeal is waiting for the moderators. This page shows their answer when they decide.
            </p>
          ) : waitUntil !== null ? (
            <p role="status" className="text-sm">
              You can appeal again from {when.format(waitUntil)} UTC.
            </p>
          ) : (
            <AppealForm guildId={guildId} questions={settings.questions} />
          )}
        </>
      )}
      <PastAppeals appeals={appeals} />
    </Shell>
  );
}
