// Image URLs for guild icons, banners, splashes, role icons and avatars, on the configured CDN
// (the built-in /cdn or Discord's): same path layout on both.
import { dashboardConfig } from "@/lib/dashboard/config";

const ext = (hash: string) => (hash.startsWith("a_") ? "gif" : "png");

function cdn(kind: string, ownerId: string, hash: string | null | undefined, size?: number): string | null {
  if (!hash) return null;
  return `${dashboardConfig().cdnUrl}/${kind}/${ownerId}/${hash}.${ext(hash)}${size ? `?size=${size}` : ""}`;
}

export const guildIconUrl = (guildId: string, hash: string | null | undefined, size?: number) =>
  cdn("icons", guildId, hash, size);
export const guildBannerUrl = (guildId: string, hash: string | null | undefined) => cdn("banners", guildId, hash);
export const guildSplashUrl = (guildId: string, hash: string | null | undefined) => cdn("splashes", guildId, hash);
export const guildDiscoverySplashUrl = (guildId: string, hash: string | null | undefined) =>
  cdn("discovery-splashes", guildId, hash);
export const roleIconUrl = (roleId: string, hash: string | null | undefined) => cdn("role-icons", roleId, hash);
export const userAvatarUrl = (userId: string, hash: string | null | undefined) => cdn("avatars", userId, hash);

// Expressions are named by id on both CDNs: emoji as .png or .gif, stickers by format (Lottie as .json), sounds bare.
export const emojiUrl = (emojiId: string, animated = false) =>
  `${dashboardConfig().cdnUrl}/emojis/${emojiId}.${animated ? "gif" : "png"}`;
export const stickerUrl = (stickerId: string, formatType: number) =>
  `${dashboardConfig().cdnUrl}/stickers/${stickerId}.${formatType === 3 ? "json" : formatType === 4 ? "gif" : "png"}`;
export const soundboardSoundUrl = (soundId: string) => `${dashboardConfig().cdnUrl}/soundboard-sounds/${soundId}`;
