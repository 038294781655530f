// The JSON parser for request bodies. JSON.parse would round integers above 2^53, and snowflakes are near 2^60:
// discord.py sends ids as JSON integers, so an integer that is not exact as a number is kept as a bigint (the
// snowflake and bitfield schemas take both). It also refuses a key repeated in one object (which copy wins differs
// between parsers, the classic smuggling trick) and nesting deeper than MAX_JSON_DEPTH (no request needs more; a
// deep body would otherwise cost stack and time).
//
// Why not a library: lossless-json (the well-kept one) walks strings character by character, 2 s for a 10 MB image
// data URI on this machine against 8 ms for JSON.parse, long enough to stall every other request. Here strings are
// scanned by character code and decoded by JSON.parse when escaped: about 25 ms for the same body.

/** Deepest nesting of arrays and objects a body may have (Guildhall's deepest schema, onboarding, needs 5). */
export const MAX_JSON_DEPTH = 32;

export class JsonBodyError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
    this.name = "JsonBodyError";
  }
}

const SPECIAL_IN_STRING = /[\\\u0000-\u001f]/;
const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

const isDigit = (code: number) => code >= 0x30 && code <= 0x39;

/** Parses `text` as one JSON value: integers beyond 2^53 as bigint, everything else as JSON.parse would. */
export function parseJsonBody(text: string): unknown {
  let i = 0;
  const length = text.length;

  const fail = (message: string): never => {
    throw new JsonBodyError(message, i);
  };

  // Character-code loops rather than regular expressions: a regex call per token cost 10 times more on token-dense
  // bodies (a 1 MiB array of small numbers).
  const skipWhitespace = () => {
    for (;;) {
      const code = text.charCodeAt(i);
      if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) i++;
      else return;
    }
  };

  const parseString = (): string => {
    const start = i;
    // Fast path: the next quote ends the string when nothing before it is an escape or a control character; one
    // native search and one native test, whatever the length (image data URIs are megabytes long).
    const quote = text.indexOf('"', start + 1);
    if (quote === -1) return fail("Unterminated string");
    const plain = text.slice(start + 1, quote);
    if (!SPECIAL_IN_STRING.test(plain)) {
      i = quote + 1;
      return plain;
    }
    i = start + 1;
    for (;;) {
      if (i >= length) return fail("Unterminated string");
      const code = text.charCodeAt(i);
      if (code === 0x22) break;
      if (code === 0x5c) {
        ESCAPE.lastIndex = i;
        if (!ESCAPE.test(text)) return fail("Bad escape in string");
        i = ESCAPE.lastIndex;
      } else if (code < 0x20) {
        return fail("Control character in string");
      } else {
        i++;
      }
    }
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };

  const parseNumber = (): number | bigint => {
    const start = i;
    let integer = true;
    if (text.charCodeAt(i) === 0x2d) i++;
    if (text.charCodeAt(i) === 0x30) i++;
    else if (isDigit(text.charCodeAt(i))) while (isDigit(text.charCodeAt(i))) i++;
    else return fail("Unexpected character");
    if (text.charCodeAt(i) === 0x2e) {
      integer = false;
      i++;
      if (!isDigit(text.charCodeAt(i))) return fail("Expected a digit");
      while (isDigit(text.charCodeAt(i))) i++;
    }
    const exponent = text.charCodeAt(i);
    if (exponent === 0x65 || exponent === 0x45) {
      integer = false;
      i++;
      const sign = text.charCodeAt(i);
      if (sign === 0x2b || sign === 0x2d) i++;
      if (!isDigit(text.charCodeAt(i))) return fail("Expected a digit");
      while (isDigit(text.charCodeAt(i))) i++;
    }
    const token = text.slice(start, i);
    const value = Number(token);
    return integer && !Number.isSafeInteger(value) ? BigInt(token) : value;
  };

  const parseValue = (depth: number): unknown => {
    skipWhitespace();
    const code = text.charCodeAt(i);
    if (code === 0x22) return parseString();
    if (code === 0x7b) return parseObject(depth + 1);
    if (code === 0x5b) return parseArray(depth + 1);
    if (text.startsWith("true", i)) return ((i += 4), true);
    if (text.startsWith("false", i)) return ((i += 5), false);
    if (text.startsWith("null", i)) return ((i += 4), null);
    if (i >= length) return fail("Unexpected end of input");
    return parseNumber();
  };

  const parseArray = (depth: number): unknown[] => {
    if (depth > MAX_JSON_DEPTH) fail(`Nested deeper than ${MAX_JSON_DEPTH} levels`);
    i++;
    const array: unknown[] = [];
    skipWhitespace();
    if (text.charCodeAt(i) === 0x5d) return (i++, array);
    for (;;) {
      array.push(parseValue(depth));
      skipWhitespace();
      const code = text.charCodeAt(i++);
      if (code === 0x5d) return array;
      if (code !== 0x2c) return fail("Expected , or ]");
    }
  };

  const parseObject = (depth: number): Record<string, unknown> => {
    if (depth > MAX_JSON_DEPTH) fail(`Nested deeper than ${MAX_JSON_DEPTH} levels`);
    i++;
    const object: Record<string, unknown> = {};
    skipWhitespace();
    if (text.charCodeAt(i) === 0x7d) return (i++, object);
    for (;;) {
      skipWhitespace();
      if (text.charCodeAt(i) !== 0x22) return fail("Expected a key");
      const keyAt = i;
      const key = parseString();
      if (Object.prototype.hasOwnProperty.call(object, key)) {
        i = keyAt;
        return fail(`Duplicate key "${key}"`);
      }
      skipWhitespace();
      if (text.charCodeAt(i++) !== 0x3a) return fail("Expected :");
      const value = parseValue(depth);
      // defineProperty, so a "__proto__" key is an own field like any other and never a prototype.
      if (key === "__proto__")
        Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
      else object[key] = value;
      skipWhitespace();
      const code = text.charCodeAt(i++);
      if (code === 0x7d) return object;
      if (code !== 0x2c) return fail("Expected , or }");
    }
  };

  const value = parseValue(0);
  skipWhitespace();
  if (i < length) fail("Unexpected data after the JSON value");
  return value;
}
