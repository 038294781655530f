"use client";

// The reader's locale (decided by the server from Accept-Language, lib/dashboard/locale.ts) for client components:
// numbers and times formatted with Intl in it, the same text on the server and after hydration.
import { createContext, useContext } from "react";
import { DEFAULT_LOCALE } from "@/lib/dashboard/locale-pick";

const LocaleContext = createContext(DEFAULT_LOCALE);

export function LocaleProvider({ locale, children }: { locale: string; children: React.ReactNode }) {
  return <LocaleContext.Provider value={locale}>{children}</LocaleContext.Provider>;
}

export function useLocale(): string {
  return useContext(LocaleContext);
}

export function formatNumber(value: number, locale: string, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(locale, options).format(value);
}

/** A count in the reader's locale ("1,000,000", "1 000 000", "10,00,000"). */
export function Num({ value, ...options }: { value: number } & Intl.NumberFormatOptions) {
  return <>{formatNumber(value, useLocale(), options)}</>;
}
