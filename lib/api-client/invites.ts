// Invites by code: Get / Delete Invite and the target-users operations.
import type {
  RESTDeleteAPIInviteResult,
  RESTGetAPIInviteQuery,
  RESTGetAPIInviteResult,
  RESTGetAPIInviteTargetUsersJobStatusResult,
} from "discord-api-types/v10";
import type { RestClient, RequestOptions } from "./rest";
import { Routes } from "./routes";

export class InvitesAPI {
  constructor(private readonly rest: RestClient) {}

  /** Get Invite */
  get(code: string, query: RESTGetAPIInviteQuery = {}, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIInviteResult>({ method: "GET", path: Routes.invite(code), query, signal });
  }

  /**
   * Accept Invite: joins the invite's guild as the token's user (a Bearer token with guilds.join). Guildhall's join
   * path; Discord has no public equivalent for OAuth2 tokens (there, a bot adds the user: Add Guild Member).
   */
  accept(code: string, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIInviteResult & { new_member: boolean }>({
      method: "POST",
      path: Routes.invite(code),
      signal,
    });
  }

  /** Delete Invite */
  delete(code: string, { reason, signal }: RequestOptions = {}) {
    return this.rest.request<RESTDeleteAPIInviteResult>({
      method: "DELETE",
      path: Routes.invite(code),
      reason,
      signal,
    });
  }

  /** Get Target Users: CSV text with the header user_id. */
  getTargetUsers(code: string, { signal }: RequestOptions = {}) {
    return this.rest.request<string>({ method: "GET", path: Routes.inviteTargetUsers(code), signal });
  }

  /** Update Target Users: the CSV of everyone allowed to accept (processed asynchronously). */
  updateTargetUsers(code: string, csv: string, { reason, signal }: RequestOptions = {}) {
    const formData = new FormData();
    formData.set("target_users_file", new Blob([csv], { type: "text/csv" }), "target_users.csv");
    return this.rest.request<void>({ method: "PUT", path: Routes.inviteTargetUsers(code), formData, reason, signal });
  }

  /** Get Target Users Job Status */
  getTargetUsersJobStatus(code: string, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIInviteTargetUsersJobStatusResult>({
      method: "GET",
      path: Routes.inviteTargetUsersJobStatus(code),
      signal,
    });
  }
}
