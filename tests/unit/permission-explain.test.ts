import { describe, expect, test } from "vitest";
import fc from "fast-check";
import {
  ALL_PERMISSIONS,
  PermissionFlags as P,
  explainFlag,
  explainPermissions,
  permissionsFor,
  type PermissionMember,
  type PermissionOverwrite,
} from "@/lib/discord/permissions";
import { GUILD, OWNER, guildContext } from "./test-guild";

const ROLE = { admin: "1100000000000000010", mod: "1100000000000000020", helper: "1100000000000000030" };
const ctx = guildContext(P.ViewChannel | P.SendMessages | P.ReadMessageHistory, [
  [ROLE.helper, P.KickMembers],
  [ROLE.mod, P.ManageChannels | P.ManageMessages],
  [ROLE.admin, P.Administrator],
]);
const member = (roleIds: string[], userId = "2000000000000000001"): PermissionMember => ({ userId, roleIds });
// #announcements: @everyone may read, not send; moderators may send.
const announcements: PermissionOverwrite[] = [
  { id: GUILD, type: 0, allow: 0n, deny: P.SendMessages },
  { id: ROLE.mod, type: 0, allow: P.SendMessages, deny: 0n },
];

describe("explainPermissions", () => {
  test("a plain member: @everyone grants Send Messages, @everyone's overwrite denies it, and that decides", () => {
    const explanation = explainPermissions(ctx, member([]), announcements);
    const send = explainFlag(explanation, P.SendMessages);
    expect(send.granted).toBe(false);
    expect(send.grants.map((s) => s.source)).toEqual([{ kind: "role", roleId: GUILD }]);
    expect(send.denies.map((s) => s.source)).toEqual([{ kind: "overwrite", target: "everyone", id: GUILD }]);
    expect(send.decidedBy?.source).toEqual({ kind: "overwrite", target: "everyone", id: GUILD });
    expect(explainFlag(explanation, P.ViewChannel)).toMatchObject({ granted: true, denies: [] });
  });

  test("a moderator: the role overwrite's allow comes after @everyone's deny and wins", () => {
    const send = explainFlag(explainPermissions(ctx, member([ROLE.mod]), announcements), P.SendMessages);
    expect(send.granted).toBe(true);
    expect(send.decidedBy?.source).toEqual({ kind: "overwrite", target: "role", id: ROLE.mod });
  });

  test("role overwrites: denies of every role first, then allows, so one role's allow beats another's deny", () => {
    const overwrites: PermissionOverwrite[] = [
      { id: ROLE.mod, type: 0, allow: P.AttachFiles, deny: 0n },
      { id: ROLE.helper, type: 0, allow: 0n, deny: P.AttachFiles },
    ];
    const attach = explainFlag(explainPermissions(ctx, member([ROLE.helper, ROLE.mod]), overwrites), P.AttachFiles);
    expect(attach.granted).toBe(true);
    expect(attach.denies.map((s) => s.source)).toEqual([{ kind: "overwrite", target: "role", id: ROLE.helper }]);
    expect(attach.decidedBy?.source).toEqual({ kind: "overwrite", target: "role", id: ROLE.mod });
  });

  test("the member's own overwrite comes last; a timeout after it", () => {
    const userId = "2000000000000000009";
    const own: PermissionOverwrite[] = [...announcements, { id: userId, type: 1, allow: 0n, deny: P.ViewChannel }];
    const view = explainFlag(explainPermissions(ctx, member([ROLE.mod], userId), own), P.ViewChannel);
    expect(view).toMatchObject({ granted: false, decidedBy: { source: { kind: "overwrite", target: "member" } } });
    const timedOut = { ...member([ROLE.mod]), communicationDisabledUntil: Date.now() + 60_000 };
    const send = explainFlag(explainPermissions(ctx, timedOut, announcements), P.SendMessages);
    expect(send).toMatchObject({ granted: false, decidedBy: { source: { kind: "timeout" } } });
  });

  test("administrators and the owner: everything, with overwrites listed as bypassed", () => {
    const admin = explainPermissions(ctx, member([ROLE.admin]), announcements);
    expect(admin).toMatchObject({ isAdministrator: true, permissions: ALL_PERMISSIONS });
    expect(admin.steps.filter((s) => s.source.kind === "overwrite").every((s) => s.bypassed)).toBe(true);
    expect(explainFlag(admin, P.SendMessages).decidedBy?.source).toEqual({ kind: "role", roleId: ROLE.admin });
    const owner = explainPermissions(ctx, member([], OWNER));
    expect(owner.isOwner).toBe(true);
    expect(explainFlag(owner, P.BanMembers).decidedBy?.source).toEqual({ kind: "owner" });
  });

  test("the verdict is always the engine's, and the last step touching a flag agrees with it", () => {
    const bits = fc.constantFrom(0n, P.ViewChannel, P.SendMessages, P.ViewChannel | P.SendMessages, P.Administrator);
    const overwrite = (id: string, type: 0 | 1) =>
      fc.record({ id: fc.constant(id), type: fc.constant(type), allow: bits, deny: bits });
    fc.assert(
      fc.property(
        fc.subarray([ROLE.helper, ROLE.mod, ROLE.admin]),
        fc.subarray([GUILD, ROLE.helper, ROLE.mod, ROLE.admin]),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        (roleIds, overwritten, own, isOwner, timedOut) =>
          fc.assert(
            fc.property(
              fc.tuple(...overwritten.map((id) => overwrite(id, 0)), overwrite("2000000000000000001", 1)),
              (list) => {
                const overwrites = (own ? list : list.slice(0, -1)) as PermissionOverwrite[];
                const subject = {
                  ...member(roleIds, isOwner ? OWNER : "2000000000000000001"),
                  communicationDisabledUntil: timedOut ? Date.now() + 60_000 : null,
                };
                const explanation = explainPermissions(ctx, subject, overwrites);
                expect(explanation.permissions).toBe(permissionsFor(ctx, subject, overwrites));
                for (const flag of [P.ViewChannel, P.SendMessages]) {
                  const { granted, decidedBy } = explainFlag(explanation, flag);
                  // Within one step an allow beats a deny of the same bit, as in the engine.
                  expect(decidedBy === null ? false : (decidedBy.allow & flag) === flag).toBe(granted);
                }
              },
            ),
            { numRuns: 10 },
          ),
      ),
      { numRuns: 60 },
    );
  });
});
