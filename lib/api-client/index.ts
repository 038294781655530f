// The typed guild API client used by the dashboard: one class per API area, Discord's operation names,
// discord-api-types for every request and result, paths from ./routes. It talks HTTP only, to the built-in
// API or to Discord's, and never imports Prisma or lib/guild-api.
import { AutoModerationAPI } from "./auto-moderation";
import { BansAPI } from "./bans";
import { ChannelsAPI } from "./channels";
import { ExpressionsAPI } from "./expressions";
import { GatewayAPI } from "./gateway";
import { GuildsAPI } from "./guilds";
import { InvitesAPI } from "./invites";
import { MembersAPI } from "./members";
import { OAuth2API } from "./oauth2";
import { RestClient, type RestOptions } from "./rest";
import { RolesAPI } from "./roles";
import { ScheduledEventsAPI } from "./scheduled-events";
import { UsersAPI } from "./users";
import { VoiceAPI } from "./voice";

export class GuildApiClient {
  readonly rest: RestClient;
  readonly guilds: GuildsAPI;
  readonly channels: ChannelsAPI;
  readonly roles: RolesAPI;
  readonly members: MembersAPI;
  readonly bans: BansAPI;
  readonly autoModeration: AutoModerationAPI;
  readonly invites: InvitesAPI;
  readonly users: UsersAPI;
  readonly oauth2: OAuth2API;
  readonly voice: VoiceAPI;
  readonly gateway: GatewayAPI;
  readonly expressions: ExpressionsAPI;
  readonly scheduledEvents: ScheduledEventsAPI;

  constructor(options: RestOptions) {
    this.rest = new RestClient(options);
    this.guilds = new GuildsAPI(this.rest);
    this.channels = new ChannelsAPI(this.rest);
    this.roles = new RolesAPI(this.rest);
    this.members = new MembersAPI(this.rest);
    this.bans = new BansAPI(this.rest);
    this.autoModeration = new AutoModerationAPI(this.rest);
    this.invites = new InvitesAPI(this.rest);
    this.users = new UsersAPI(this.rest);
    this.oauth2 = new OAuth2API(this.rest);
    this.voice = new VoiceAPI(this.rest);
    this.gateway = new GatewayAPI(this.rest);
    this.expressions = new ExpressionsAPI(this.rest);
    this.scheduledEvents = new ScheduledEventsAPI(this.rest);
  }
}

export {
  AutoModerationAPI,
  BansAPI,
  ChannelsAPI,
  ExpressionsAPI,
  GatewayAPI,
  GuildsAPI,
  InvitesAPI,
  MembersAPI,
  OAuth2API,
  RestClient,
  RolesAPI,
  ScheduledEventsAPI,
  UsersAPI,
  VoiceAPI,
};
export type { CreateGuildStickerForm } from "./expressions";
export type { RestOptions, RequestOptions, RateLimitNotice, HttpMethod } from "./rest";
export { isIdempotent } from "./rest";
export {
  GuildApiError,
  RateLimitError,
  GuildApiUnreachableError,
  flattenErrorTree,
  describeApiError,
  type ApiFieldError,
} from "./errors";
export { Routes } from "./routes";
