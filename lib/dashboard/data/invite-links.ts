// Where an invite code leads: the built-in provider's landing page (/invite/{code} on this origin), or discord.gg when
// the dashboard manages a guild on Discord itself.
import "server-only";
import { dashboardConfig } from "@/lib/dashboard/config";

export function inviteLinkBase(): string {
  const config = dashboardConfig();
  return /\/\/(www\.)?discord\.com\//.test(`${config.guildApiUrl}/`)
    ? "https://discord.gg"
    : `${config.publicUrl}/invite`;
}
