// Raw URL text for generated values.

/** UTF-8 percent-encoding that also takes lone surrogates (encodeURIComponent throws on them). */
export function encodeComponent(value: string): string {
  let out = "";
  for (const byte of Buffer.from(value, "utf8")) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~@]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}
