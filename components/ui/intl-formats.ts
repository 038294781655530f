// Intl formatters, made once per locale and options. Making one loads locale data and costs far more than formatting
// (measured on the members page: the per-row dates' formatters were the server's largest single cost, about 12 ms a
// render for 100 rows), and the tables format hundreds of dates and numbers per page.
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
const relativeTimeFormats = new Map<string, Intl.RelativeTimeFormat>();

/** Formatters kept at most, per kind: a few locales × the handful of option sets the UI uses. */
const MAX_KEPT = 200;

function kept<F>(table: Map<string, F>, key: string, make: () => F): F {
  let format = table.get(key);
  if (!format) {
    if (table.size >= MAX_KEPT) table.clear();
    table.set(key, (format = make()));
  }
  return format;
}

export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return kept(dateTimeFormats, `${locale}|${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options));
}

export function relativeTimeFormat(locale: string, options: Intl.RelativeTimeFormatOptions): Intl.RelativeTimeFormat {
  return kept(
    relativeTimeFormats,
    `${locale}|${JSON.stringify(options)}`,
    () => new Intl.RelativeTimeFormat(locale, options),
  );
}
