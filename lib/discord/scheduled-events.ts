// Guild Scheduled Events as Discord defines them: entity types, statuses and the changes between them, the limits,
// and the restrictions Discord puts on recurrence rules. Shared by the built-in API (validation) and the dashboard's
// editor (the same rules before sending). Sources: Discord's Guild Scheduled Event documentation and its OpenAPI
// description (*ScheduledEventCreateRequest, RecurrenceRule).

export const ScheduledEventEntityType = { StageInstance: 1, Voice: 2, External: 3 } as const;
export type ScheduledEventEntityType = (typeof ScheduledEventEntityType)[keyof typeof ScheduledEventEntityType];

export const ScheduledEventStatus = { Scheduled: 1, Active: 2, Completed: 3, Canceled: 4 } as const;
export type ScheduledEventStatus = (typeof ScheduledEventStatus)[keyof typeof ScheduledEventStatus];

/** GUILD_ONLY is the only privacy level Discord accepts. */
export const SCHEDULED_EVENT_PRIVACY_GUILD_ONLY = 2;

export const SCHEDULED_EVENT_LIMITS = {
  name: 100,
  description: 1000,
  location: 100,
  /** Events a guild may have that are neither completed nor canceled (30038 beyond). */
  uncompleted: 100,
  /** Get Guild Scheduled Event Users' page. */
  usersPage: { min: 1, max: 100, default: 100 },
} as const;

/**
 * The status changes Discord allows: SCHEDULED → ACTIVE or CANCELED, ACTIVE → COMPLETED. A completed or canceled
 * event cannot change at all.
 */
export const STATUS_TRANSITIONS: Readonly<Record<ScheduledEventStatus, readonly ScheduledEventStatus[]>> = {
  [ScheduledEventStatus.Scheduled]: [ScheduledEventStatus.Active, ScheduledEventStatus.Canceled],
  [ScheduledEventStatus.Active]: [ScheduledEventStatus.Completed],
  [ScheduledEventStatus.Completed]: [],
  [ScheduledEventStatus.Canceled]: [],
};

export const isFinished = (status: number): boolean =>
  status === ScheduledEventStatus.Completed || status === ScheduledEventStatus.Canceled;

export const mayChangeStatus = (from: number, to: number): boolean =>
  from === to || (STATUS_TRANSITIONS[from as ScheduledEventStatus] ?? []).includes(to as ScheduledEventStatus);

// ── Recurrence rules ───────────────────────────────────────────────────────────────────────────────────────────

export const RecurrenceFrequency = { Yearly: 0, Monthly: 1, Weekly: 2, Daily: 3 } as const;
export type RecurrenceFrequency = (typeof RecurrenceFrequency)[keyof typeof RecurrenceFrequency];

/** Monday is 0, Sunday 6 (Discord's RecurrenceRuleWeekdays). */
export const WEEKDAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;

/** The only weekday sets a DAILY rule may name (Discord's "known valid weekday sets"). */
export const DAILY_WEEKDAY_SETS: readonly (readonly number[])[] = [
  [0, 1, 2, 3, 4], // Monday to Friday
  [1, 2, 3, 4, 5], // Tuesday to Saturday
  [6, 0, 1, 2, 3], // Sunday to Thursday
  [4, 5], // Friday and Saturday
  [5, 6], // Saturday and Sunday
  [6, 0], // Sunday and Monday
];

export interface RecurrenceRuleInput {
  frequency: number;
  interval?: number | null;
  by_weekday?: readonly number[] | null;
  by_n_weekday?: readonly { n: number; day: number }[] | null;
  by_month?: readonly number[] | null;
  by_month_day?: readonly number[] | null;
  by_year_day?: readonly number[] | null;
  count?: number | null;
  end?: string | null;
}

export interface RecurrenceProblem {
  /** The rule's field at fault. */
  field: keyof RecurrenceRuleInput;
  message: string;
}

const sameSet = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && [...a].sort().join() === [...b].sort().join();

/**
 * What Discord refuses in a recurrence rule, beyond the field types: end, count and by_year_day are the system's;
 * by_weekday only for DAILY (a known set) and WEEKLY (one day); by_n_weekday only for MONTHLY (one entry);
 * by_month with by_month_day only for YEARLY (one each); an interval of 1, or 2 for WEEKLY (every other week).
 */
export function recurrenceRuleProblems(rule: RecurrenceRuleInput): RecurrenceProblem[] {
  const problems: RecurrenceProblem[] = [];
  const has = (list: readonly unknown[] | null | undefined) => Array.isArray(list) && list.length > 0;
  for (const field of ["end", "count", "by_year_day"] as const)
    if (rule[field] != null) problems.push({ field, message: `${field} cannot be set: Discord sets it.` });
  const interval = rule.interval ?? 1;
  const { frequency } = rule;
  if (interval !== 1 && !(frequency === RecurrenceFrequency.Weekly && interval === 2))
    problems.push({ field: "interval", message: "interval must be 1, or 2 for a weekly rule (every other week)." });
  if (has(rule.by_weekday) && has(rule.by_n_weekday))
    problems.push({ field: "by_n_weekday", message: "by_weekday and by_n_weekday cannot both be set." });
  const weekdays = rule.by_weekday ?? [];
  switch (frequency) {
    case RecurrenceFrequency.Daily:
      if (has(weekdays) && !DAILY_WEEKDAY_SETS.some((set) => sameSet(set, weekdays)))
        problems.push({
          field: "by_weekday",
          message: "A daily rule's weekdays must be one of Discord's known sets (Monday-Friday, weekends, …).",
        });
      break;
    case RecurrenceFrequency.Weekly:
      if (weekdays.length !== 1)
        problems.push({ field: "by_weekday", message: "A weekly rule names exactly one weekday." });
      break;
    case RecurrenceFrequency.Monthly:
      if ((rule.by_n_weekday ?? []).length !== 1)
        problems.push({ field: "by_n_weekday", message: "A monthly rule names exactly one n-th weekday." });
      break;
    case RecurrenceFrequency.Yearly:
      if ((rule.by_month ?? []).length !== 1 || (rule.by_month_day ?? []).length !== 1)
        problems.push({ field: "by_month", message: "A yearly rule names exactly one month and one day of it." });
      break;
  }
  if (frequency !== RecurrenceFrequency.Daily && frequency !== RecurrenceFrequency.Weekly && has(weekdays))
    problems.push({ field: "by_weekday", message: "by_weekday is for daily and weekly rules only." });
  if (frequency !== RecurrenceFrequency.Monthly && has(rule.by_n_weekday))
    problems.push({ field: "by_n_weekday", message: "by_n_weekday is for monthly rules only." });
  if (frequency !== RecurrenceFrequency.Yearly && (has(rule.by_month) || has(rule.by_month_day)))
    problems.push({ field: "by_month", message: "by_month and by_month_day are for yearly rules only." });
  return problems;
}
