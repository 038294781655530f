// The server widget as Discord's embed draws it, from Get Guild Widget (widget.json): the server name and online
// count, voice channels with who is in them, the online members with avatar and presence, and a Join button on the
// widget's instant invite. Used by the dashboard's preview and by the embeddable /widget page.
import type { APIGuildWidget, APIGuildWidgetMember } from "discord-api-types/v10";
import { cn } from "@/components/ui/cn";
import { Icons } from "@/components/ui/icons";
import { WidgetAvatar } from "./widget-avatar";

/** Discord's widget.json also carries the voice channel (and voice flags) of members in a listed channel. */
type WidgetMember = APIGuildWidgetMember & { channel_id?: string; mute?: boolean; self_mute?: boolean };

const THEMES = {
  dark: "[--widget-bg:#2b2d31] bg-[#2b2d31] text-[#f2f3f5]",
  light: "[--widget-bg:#ffffff] bg-white text-[#313338]",
} as const;

function MemberRow({ member, index, compact }: { member: WidgetMember; index: number; compact?: boolean }) {
  return (
    <li className={cn("flex items-center gap-2.5", compact ? "py-0.5" : "py-1")}>
      <WidgetAvatar
        src={member.avatar_url}
        name={member.username}
        index={index}
        status={member.status}
        size={compact ? 20 : 28}
      />
      <span className="min-w-0 truncate text-sm">{member.username}</span>
      {member.channel_id && (member.self_mute || member.mute) && (
        <span className="ml-auto text-[10px] uppercase opacity-60">muted</span>
      )}
    </li>
  );
}

export function WidgetCard({
  widget,
  theme = "dark",
  className,
}: {
  widget: APIGuildWidget;
  theme?: keyof typeof THEMES;
  className?: string;
}) {
  const members = (widget.members as WidgetMember[]).map((member, index) => ({ member, index }));
  const inChannel = (channelId: string) => members.filter(({ member }) => member.channel_id === channelId);
  return (
    <section
      aria-label={`${widget.name} widget`}
      className={cn(
        "flex w-full max-w-[350px] flex-col overflow-hidden rounded-md shadow-lg ring-1 ring-black/20",
        THEMES[theme],
        className,
      )}
    >
      <header className="flex items-center justify-between gap-3 bg-[#5865f2] px-4 py-3 text-white">
        <span className="text-lg font-extrabold tracking-tight">Guildhall</span>
        <span className="text-sm" data-testid="widget-online">
          <strong>{widget.presence_count}</strong> Members Online
        </span>
      </header>
      {/* Focusable so a keyboard can scroll the member list. */}
      <div tabIndex={0} className="min-h-0 flex-1 overflow-y-auto px-4 py-3">
        <h3 className="mb-3 truncate text-base font-bold" data-testid="widget-name">
          {widget.name}
        </h3>
        {widget.channels.length > 0 && (
          <div className="mb-3">
            <p className="mb-1 text-[11px] font-bold uppercase tracking-wide opacity-60">Voice channels</p>
            <ul aria-label="Voice channels" className="flex flex-col gap-1">
              {[...widget.channels]
                .sort((a, b) => a.position - b.position)
                .map((channel) => (
                  <li key={channel.id}>
                    <span className="flex items-center gap-1.5 text-sm font-medium opacity-80">
                      <Icons.speaker className="size-4" /> {channel.name}
                    </span>
                    {inChannel(channel.id).length > 0 && (
                      <ul className="ml-6 mt-0.5" aria-label={`In ${channel.name}`}>
                        {inChannel(channel.id).map(({ member, index }) => (
                          <MemberRow key={member.id} member={member} index={index} compact />
                        ))}
                      </ul>
                    )}
                  </li>
                ))}
            </ul>
          </div>
        )}
        <p className="mb-1 text-[11px] font-bold uppercase tracking-wide opacity-60">Members online</p>
        {members.length === 0 ? (
          <p className="text-sm opacity-60">Nobody is online right now.</p>
        ) : (
          <ul aria-label="Members online" className="flex flex-col">
            {members.map(({ member, index }) => (
              <MemberRow key={member.id} member={member} index={index} />
            ))}
          </ul>
        )}
      </div>
      <footer className="flex items-center justify-between gap-3 border-t border-black/20 px-4 py-3">
        <span className="text-xs opacity-70">Hang out with people who get you</span>
        {widget.instant_invite ? (
          <a
            href={widget.instant_invite}
            target="_blank"
            rel="noreferrer"
            className="rounded bg-white/10 px-4 py-1.5 text-sm font-semibold ring-1 ring-inset ring-current/30 hover:bg-white/20"
          >
            Join Server
          </a>
        ) : (
          <span className="text-xs opacity-60" title="The widget has no invite channel">
            No invite channel
          </span>
        )}
      </footer>
    </section>
  );
}
