// Voice regions the built-in API reports (Get Guild Voice Regions). The service has no voice servers, so the
// list is static: the regions Discord currently offers, a few retired ones still answered as deprecated, and
// the VIP regions that only guilds with the VIP_REGIONS feature see. `optimal` would depend on the caller's
// location; with no geography to go on, US East (Discord's default) is the one marked optimal.

export interface VoiceRegion {
  id: string;
  name: string;
  optimal: boolean;
  deprecated: boolean;
  custom: boolean;
}

const region = (id: string, name: string, flags: Partial<Omit<VoiceRegion, "id" | "name">> = {}): VoiceRegion => ({
  id,
  name,
  optimal: false,
  deprecated: false,
  custom: false,
  ...flags,
});

export const VOICE_REGIONS: readonly VoiceRegion[] = [
  region("brazil", "Brazil"),
  region("hongkong", "Hong Kong"),
  region("india", "India"),
  region("japan", "Japan"),
  region("rotterdam", "Rotterdam"),
  region("singapore", "Singapore"),
  region("south-korea", "South Korea"),
  region("southafrica", "South Africa"),
  region("sydney", "Sydney"),
  region("us-central", "US Central"),
  region("us-east", "US East", { optimal: true }),
  region("us-south", "US South"),
  region("us-west", "US West"),
  region("europe", "Europe", { deprecated: true }),
  region("russia", "Russia", { deprecated: true }),
];

export const VIP_VOICE_REGIONS: readonly VoiceRegion[] = [
  region("vip-us-east", "VIP US East"),
  region("vip-us-west", "VIP US West"),
  region("vip-amsterdam", "VIP Amsterdam"),
];

/** The regions a guild sees: VIP regions only with the VIP_REGIONS feature. */
export function voiceRegionsFor(features: readonly string[]): VoiceRegion[] {
  return features.includes("VIP_REGIONS") ? [...VOICE_REGIONS, ...VIP_VOICE_REGIONS] : [...VOICE_REGIONS];
}
