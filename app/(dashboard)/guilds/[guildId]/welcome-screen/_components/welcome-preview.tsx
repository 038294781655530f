// The welcome screen as the Discord client shows it to a new member: the server's icon and name, the description,
// and up to five channel cards (emoji, description, channel).
import { Avatar } from "@/components/ui/avatar";
import { Icons } from "@/components/ui/icons";
import { EmojiText } from "@/components/dashboard/emoji-picker";
import type { WelcomeScreenValues } from "@/lib/dashboard/actions/schemas/welcome-screen";

export function WelcomePreview({
  guild,
  values,
  channelNames,
}: {
  guild: { id: string; name: string; iconUrl: string | null };
  values: WelcomeScreenValues;
  channelNames: Record<string, string>;
}) {
  return (
    <section
      aria-label="Welcome screen preview"
      className="dark mx-auto w-full max-w-[440px] rounded-lg bg-[#313338] p-5 text-[#f2f3f5] shadow-xl ring-1 ring-black/30"
    >
      {!values.enabled && (
        <p className="mb-3 rounded bg-white/10 px-2 py-1 text-center text-xs text-[#b5bac1]">
          Off: new members skip this screen.
        </p>
      )}
      <div className="flex flex-col items-center text-center">
        <Avatar src={guild.iconUrl} name={guild.name} id={guild.id} size={64} rounded="xl" />
        <h3 className="mt-3 text-xl font-bold">
          Welcome to <span data-testid="welcome-preview-name">{guild.name}</span>!
        </h3>
        {values.description && (
          <p className="mt-2 text-sm text-[#b5bac1]" data-testid="welcome-preview-description">
            {values.description}
          </p>
        )}
      </div>
      {values.welcome_channels.length > 0 && (
        <>
          <p className="mb-2 mt-5 text-xs font-bold uppercase tracking-wide text-[#b5bac1]">
            Here are some channels to get you started
          </p>
          <ul className="flex flex-col gap-2" aria-label="Suggested channels">
            {values.welcome_channels.map((channel, index) => (
              <li
                key={`${channel.channel_id}-${index}`}
                className="flex items-center gap-3 rounded-md bg-[#2b2d31] px-3 py-2.5"
              >
                <span className="flex h-9 min-w-9 max-w-24 shrink-0 items-center justify-center overflow-hidden rounded-full bg-[#1e1f22] px-1 text-lg [&_.font-mono]:text-[10px]">
                  {channel.emoji_name ? (
                    <EmojiText value={channel} />
                  ) : (
                    <Icons.hash className="size-4 text-[#b5bac1]" />
                  )}
                </span>
                <span className="min-w-0 flex-1">
                  <span className="block truncate text-sm font-semibold">
                    {channel.description || "Describe this channel"}
                  </span>
                  <span className="block truncate text-xs text-[#b5bac1]">
                    #{channelNames[channel.channel_id] ?? "unknown-channel"}
                  </span>
                </span>
                <Icons.chevronDown className="size-4 -rotate-90 text-[#b5bac1]" />
              </li>
            ))}
          </ul>
        </>
      )}
      <p className="mt-5 text-center text-xs text-[#b5bac1] underline decoration-dotted">
        Nah, I&apos;m good. I just want to explore.
      </p>
    </section>
  );
}
