// A count with its noun in the right number: "1 user", "2 users", "1 id", "0 members". Pure (client components use it).

/**
 * `count` followed by `one` or `many` (`one` + "s" unless given), the count shown as `format` writes it (the reader's
 * locale: "1,200 users").
 */
export function plural(
  count: number,
  one: string,
  options: { many?: string; format?: (count: number) => string } = {},
): string {
  const shown = options.format ? options.format(count) : String(count);
  return `${shown} ${count === 1 ? one : (options.many ?? `${one}s`)}`;
}
