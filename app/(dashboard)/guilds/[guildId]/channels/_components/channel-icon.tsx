import { ChannelType } from "discord-api-types/v10";
import { Icons } from "@/components/ui/icons";

export const CHANNEL_TYPE_NAMES: Partial<Record<ChannelType, string>> = {
  [ChannelType.GuildText]: "Text",
  [ChannelType.GuildVoice]: "Voice",
  [ChannelType.GuildCategory]: "Category",
  [ChannelType.GuildAnnouncement]: "Announcement",
  [ChannelType.GuildStageVoice]: "Stage",
  [ChannelType.GuildForum]: "Forum",
  [ChannelType.GuildMedia]: "Media",
  [ChannelType.PublicThread]: "Thread",
  [ChannelType.PrivateThread]: "Private thread",
  [ChannelType.AnnouncementThread]: "Announcement thread",
};

export function ChannelIcon({ type, className = "size-4" }: { type: ChannelType; className?: string }) {
  const Icon =
    type === ChannelType.GuildVoice
      ? Icons.speaker
      : type === ChannelType.GuildAnnouncement
        ? Icons.megaphone
        : type === ChannelType.GuildStageVoice
          ? Icons.stage
          : type === ChannelType.GuildForum
            ? Icons.forum
            : type === ChannelType.GuildMedia
              ? Icons.media
              : type === ChannelType.GuildCategory
                ? Icons.folder
                : type === ChannelType.PublicThread ||
                    type === ChannelType.PrivateThread ||
                    type === ChannelType.AnnouncementThread
                  ? Icons.thread
                  : Icons.hash;
  return (
    <span title={CHANNEL_TYPE_NAMES[type] ?? "Channel"} className="inline-flex text-ink-muted">
      <Icon className={className} />
    </span>
  );
}
