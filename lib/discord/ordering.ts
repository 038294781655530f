// Order editors without phantom changes: lists sorted exactly as Discord sorts them (position, then id), the items a
// user actually moved (everything outside the longest run that kept its relative order), and the smallest set of
// position changes that produces the new order. A list that has not been touched yields no change at all.
import { ChannelType } from "discord-api-types/v10";

export interface Positioned {
  id: string;
  position: number;
}

/** Ascending by position, then by id (numerically): Discord's order for channels. */
export function comparePositions(a: Positioned, b: Positioned): number {
  if (a.position !== b.position) return a.position - b.position;
  const idA = BigInt(a.id);
  const idB = BigInt(b.id);
  return idA === idB ? 0 : idA < idB ? -1 : 1;
}

/** Roles as Discord lists them: highest first; equal positions, the older role (lower id) first. */
export function sortRolesHighestFirst<T extends Positioned>(roles: readonly T[]): T[] {
  return [...roles].sort(
    (a, b) => b.position - a.position || comparePositions({ ...a, position: 0 }, { ...b, position: 0 }),
  );
}

/**
 * The ids that moved between two orders of the same items: those outside a longest common subsequence, so dragging
 * one item marks that item only, not the ones that slid to make room. Items new to `next` count as moved.
 */
export function movedIds(original: readonly string[], next: readonly string[]): Set<string> {
  const before = original.filter((id) => next.includes(id));
  const n = before.length;
  const m = next.length;
  // Classic LCS table; the lists are a guild's roles or a category's channels (hundreds at most).
  const table: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      table[i][j] = before[i] === next[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
  const kept = new Set<string>();
  for (let i = 0, j = 0; i < n && j < m;) {
    if (before[i] === next[j]) {
      kept.add(next[j]);
      i++;
      j++;
    } else if (table[i + 1][j] >= table[i][j + 1]) i++;
    else j++;
  }
  return new Set(next.filter((id) => !kept.has(id)));
}

/**
 * Modify Guild Role Positions for a new order (highest first, @everyone excluded): only the roles the user moved,
 * each at its rank from the bottom (1 = just above @everyone), as the API places listed roles and keeps the rest in
 * order around them.
 */
export function rolePositionChanges(
  originalHighestFirst: readonly string[],
  nextHighestFirst: readonly string[],
): Positioned[] {
  const moved = movedIds(originalHighestFirst, nextHighestFirst);
  const count = nextHighestFirst.length;
  return nextHighestFirst.flatMap((id, index) => (moved.has(id) ? [{ id, position: count - index }] : []));
}

/**
 * New positions for one sorted bucket (the channels of one parent that sort together) in its new order: items in
 * `fixed` keep their position while it still sorts them after the previous item; every other item gets the lowest
 * position that places it after the previous item and, where possible, before the next fixed one. Returns only the
 * items whose position changes.
 */
export function assignPositions(ordered: readonly Positioned[], fixed: ReadonlySet<string>): Positioned[] {
  const changes: Positioned[] = [];
  let last: Positioned | null = null;
  const after = (candidate: Positioned) => last === null || comparePositions(candidate, last) > 0;
  ordered.forEach((item, index) => {
    if (fixed.has(item.id) && after(item)) {
      last = item;
      return;
    }
    const lower: number = last === null ? 0 : last.position;
    const upper = ordered.slice(index + 1).find((other) => fixed.has(other.id) && after(other));
    const fits = (position: number) =>
      position >= 0 &&
      after({ id: item.id, position }) &&
      (upper === undefined || comparePositions({ id: item.id, position }, upper) < 0);
    const candidates = [lower, lower + 1, ...(upper ? [upper.position - 1, upper.position] : [])];
    const position = candidates.find(fits) ?? (after({ id: item.id, position: lower }) ? lower : lower + 1);
    const placed = { id: item.id, position };
    if (position !== item.position) changes.push(placed);
    last = placed;
  });
  return changes;
}

export interface OrderedChannel extends Positioned {
  type: number;
  parent_id: string | null;
}

/** Voice and stage channels sort after the other channels of their category, as in Discord's channel list. */
export const isVoiceLike = (type: number) => type === ChannelType.GuildVoice || type === ChannelType.GuildStageVoice;

/** Discord's channel list order within one parent: text-like first, then voice-like, each by position then id. */
export function compareSiblings(a: OrderedChannel, b: OrderedChannel): number {
  return Number(isVoiceLike(a.type)) - Number(isVoiceLike(b.type)) || comparePositions(a, b);
}

/** A channel list's shape: categories in order, and each parent's channels in order ("" for no category). */
export interface ChannelLayout {
  categories: string[];
  children: Record<string, string[]>;
}

export const NO_CATEGORY = "";

/** The layout the API's channels describe, in Discord's order. */
export function channelLayout(channels: readonly OrderedChannel[]): ChannelLayout {
  const categories = channels
    .filter((c) => c.type === ChannelType.GuildCategory)
    .sort(comparePositions)
    .map((c) => c.id);
  const children: Record<string, string[]> = { [NO_CATEGORY]: [] };
  for (const id of categories) children[id] = [];
  const others = channels.filter((c) => c.type !== ChannelType.GuildCategory).sort(compareSiblings);
  for (const c of others)
    children[c.parent_id !== null && children[c.parent_id] ? c.parent_id : NO_CATEGORY].push(c.id);
  return { categories, children };
}

/** Keeps each parent's voice-like channels after its text-like ones (stable), as Discord will show them anyway. */
export function settleLayout(layout: ChannelLayout, typeOf: (id: string) => number): ChannelLayout {
  const children = Object.fromEntries(
    Object.entries(layout.children).map(([key, ids]) => [
      key,
      [...ids.filter((id) => !isVoiceLike(typeOf(id))), ...ids.filter((id) => isVoiceLike(typeOf(id)))],
    ]),
  );
  return { categories: layout.categories, children };
}

export interface ChannelPositionChange {
  id: string;
  position: number;
  parent_id?: string | null;
}

/**
 * Modify Guild Channel Positions for a new layout: only channels that moved (to another category, or out of the
 * order they kept with their siblings) plus any sibling whose position must change to make room; a channel moved to
 * another category carries its new parent_id. Unchanged layouts give an empty list.
 */
export function channelPositionChanges(
  channels: readonly OrderedChannel[],
  original: ChannelLayout,
  next: ChannelLayout,
): ChannelPositionChange[] {
  const byId = new Map(channels.map((c) => [c.id, c]));
  const changes: ChannelPositionChange[] = [];
  const bucket = (ids: readonly string[]) => ids.map((id) => byId.get(id)!);
  const plan = (before: readonly string[], after: readonly string[]) => {
    const moved = movedIds(before, after);
    const fixed = new Set(after.filter((id) => !moved.has(id)));
    return assignPositions(bucket(after), fixed);
  };

  for (const change of plan(original.categories, next.categories)) changes.push(change);
  for (const [parent, ids] of Object.entries(next.children)) {
    const parentId = parent === NO_CATEGORY ? null : parent;
    const before = original.children[parent] ?? [];
    for (const voice of [false, true]) {
      const inBucket = (id: string) => isVoiceLike(byId.get(id)!.type) === voice;
      // Channels that arrived from another category are moved by definition: they are not in `before`.
      const placed = plan(before.filter(inBucket), ids.filter(inBucket));
      const placedIds = new Set(placed.map((c) => c.id));
      const arrived = (id: string) => !before.includes(id);
      for (const change of placed) changes.push(arrived(change.id) ? { ...change, parent_id: parentId } : change);
      // A channel that changed category but kept a position that still fits there is sent with its parent only.
      for (const id of ids.filter(inBucket))
        if (!placedIds.has(id) && arrived(id))
          changes.push({ id, position: byId.get(id)!.position, parent_id: parentId });
    }
  }
  return changes;
}
