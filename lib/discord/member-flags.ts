// Guild Member Flags by name (discord-api-types' GuildMemberFlags), so no code tests a bare bit such as `flags & 4`.
import { GuildMemberFlags } from "discord-api-types/v10";

export { GuildMemberFlags };

/** Whether `flags` holds `flag`. */
export const hasMemberFlag = (flags: number, flag: GuildMemberFlags): boolean => (flags & flag) === flag;
