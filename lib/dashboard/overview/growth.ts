// Joins and leaves per day over the last days, from members' join dates and the audit log's removals (kicks, bans,
// prunes). Pure: the overview's reads feed it. Days are UTC calendar days, oldest first, ending today.
export const GROWTH_DAYS = 30;
const DAY_MS = 86_400_000;

export interface GrowthDay {
  /** yyyy-mm-dd (UTC). */
  day: string;
  /** Null when joins were not counted (the guild is too large to list every member). */
  joins: number | null;
  leaves: number;
}

export const dayKey = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The first millisecond of the oldest day in the window ending on `now`'s day. */
export function windowStart(now: number, days = GROWTH_DAYS): number {
  return Date.parse(dayKey(now)) - (days - 1) * DAY_MS;
}

export function growthByDay(input: {
  now: number;
  /** Join times (ms) of the members listed, or null when the members were not listed. */
  joinedAt: readonly number[] | null;
  /** Removals from the audit log: when, and how many members. */
  removals: ReadonlyArray<{ at: number; members: number }>;
  days?: number;
}): GrowthDay[] {
  const days = input.days ?? GROWTH_DAYS;
  const start = windowStart(input.now, days);
  const rows: GrowthDay[] = Array.from({ length: days }, (_, i) => ({
    day: dayKey(start + i * DAY_MS),
    joins: input.joinedAt ? 0 : null,
    leaves: 0,
  }));
  const slot = (ms: number) => {
    const index = Math.floor((ms - start) / DAY_MS);
    return index >= 0 && index < days ? rows[index] : undefined;
  };
  for (const at of input.joinedAt ?? []) {
    const row = slot(at);
    if (row) row.joins = (row.joins ?? 0) + 1;
  }
  for (const removal of input.removals) {
    const row = slot(removal.at);
    if (row) row.leaves += removal.members;
  }
  return rows;
}
