// npm run bench:automod [-- --messages N] [-- --seed S]   (or `npx tsx bench/automod.ts`; `npm run bench` runs it
// after its other passes, `-- --no-automod` skips it)
// Issue #33's figure, measured, never asserted: "The matcher checks a 2,000-character message against 6 keyword rules
// of 1,000 keywords each and 10 regular expressions in ≤ 1 ms." Six rules of 1,000 pseudo-words each (whole words,
// prefixes, suffixes, anywhere, a few phrases; each rule with a short allow_list), the 10 patterns on the first rule
// (Discord's most for one rule), then N messages of 2,000 characters (default 4,000: clean chat, a keyword early, a
// keyword late, a pattern late), each checked against all six rules as a message would be. Prints µs per message:
// the median and p99 by kind and over all. In this process only: no database, no server, no build.
import { compileKeywordTrigger, type CompiledKeywordTrigger } from "@/lib/discord/automod/matcher";
import { summarize } from "./load";
import { argValue, fmt } from "./setup";

const messageCount = Number(argValue("--messages") ?? 4_000);
const seed = Number(argValue("--seed") ?? 33);
const GOAL_US = 1_000;
const LENGTH = 2_000;

/** mulberry32: the same rules and messages on every run with the same seed. */
function random(state: number): () => number {
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const next = random(seed);
const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];

// Pseudo-words: syllables as a word list's words are made, 2–4 of them ("drelkon", "vosharit").
const ONSETS = [
  "b",
  "br",
  "d",
  "dr",
  "f",
  "g",
  "gr",
  "k",
  "kr",
  "l",
  "m",
  "n",
  "p",
  "pl",
  "r",
  "s",
  "sh",
  "st",
  "t",
  "v",
  "z",
];
const NUCLEI = ["a", "e", "i", "o", "u", "ai", "ou", "y"];
const CODAS = ["", "", "n", "r", "l", "k", "x", "sh", "nd", "rt"];
const pseudoWord = () =>
  Array.from({ length: 2 + Math.floor(next() * 3) }, () => pick(ONSETS) + pick(NUCLEI) + pick(CODAS)).join("");

/** One keyword in a mix of Discord's forms. */
function keyword(): string {
  const roll = next();
  if (roll < 0.55) return pseudoWord();
  if (roll < 0.7) return `${pseudoWord()}*`;
  if (roll < 0.85) return `*${pseudoWord()}`;
  if (roll < 0.95) return `*${pseudoWord()}*`;
  return `${pseudoWord()} ${pseudoWord()}`;
}

const REGEXES = [
  "(?:discord(?:app)?\\.(?:gg|com/invite)|dsc\\.gg)/[a-z0-9-]+",
  "fr[e3]{2}\\s*n[i1l]tr[o0]",
  "st[e3]am\\s*c[o0]mm?un[i1l]ty",
  "\\b\\d{3}[-.\\s]?\\d{3}[-.\\s]?\\d{4}\\b",
  "[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}",
  "\\b(?:\\d{1,3}\\.){3}\\d{1,3}\\b",
  "(?:bit\\.ly|tinyurl\\.com|t\\.co)/\\S+",
  "\\b0x[a-f0-9]{40}\\b",
  "[\\x{0300}-\\x{036f}]{4,}",
  "[!?]{12,}",
];

const CHAT = (
  "the a to and of in is it you that he was for on are with as I his they be at one have this from or had by hot " +
  "word but what some we can out other were all there when up use your how said an each she which do their time if " +
  "will way about many then them write would like so these her long make thing see him two has look more day could " +
  "go come did number sound no most people my over know water than call first who may down side been now find game " +
  "server channel voice stream tonight raid boss loot patch update lol gg thanks welcome friend music movie weekend"
).split(" ");

/** Chat of about `length` characters, words and some punctuation. */
function chat(length: number): string {
  let text = "";
  while (text.length < length) text += pick(CHAT) + (next() < 0.1 ? pick([", ", ". ", "! ", "? "]) : " ");
  return text.slice(0, length);
}

/** `length` characters of chat with `insert` at `at` (0 to 1 of the way in), on word boundaries. */
function chatWith(insert: string, at: number): string {
  const before = chat(Math.floor((LENGTH - insert.length - 2) * at));
  const after = chat(LENGTH - before.length - insert.length - 2);
  return `${before} ${insert} ${after}`.slice(0, LENGTH);
}

/** A keyword's text as a message would show it: whole words as they are, wildcards filled out. */
const asWritten = (pattern: string) => pattern.replace(/^\*/, "re").replace(/\*$/, "ing");

function main(): void {
  const keywordLists = Array.from({ length: 6 }, () => Array.from({ length: 1_000 }, keyword));
  const definitions = keywordLists.map((keyword_filter, i) => ({
    keyword_filter,
    regex_patterns: i === 0 ? REGEXES : [],
    allow_list: Array.from({ length: 20 }, () => `${pseudoWord()}${next() < 0.5 ? "*" : ""}`),
  }));
  const compileStarted = performance.now();
  const rules: CompiledKeywordTrigger[] = definitions.map(compileKeywordTrigger);
  const compileMs = performance.now() - compileStarted;

  const kinds = {
    clean: () => chat(LENGTH),
    "keyword early": () => chatWith(asWritten(pick(pick(keywordLists))), 0.02),
    "keyword late": () => chatWith(asWritten(pick(keywordLists[5])), 0.98),
    "pattern late": () => chatWith(`join discord.gg/${pseudoWord()} now`, 0.97),
  } as const;
  type Kind = keyof typeof kinds;
  const names = Object.keys(kinds) as Kind[];
  const messages = Array.from({ length: messageCount }, (_, i) => {
    const kind = names[i % names.length];
    return { kind, content: kinds[kind]() };
  });

  const check = (content: string) => {
    let triggered = 0;
    for (const rule of rules) if (rule.match(content)) triggered++;
    return triggered;
  };
  // Warm-up: the engines' caches and V8's optimizer, on messages of their own.
  for (let i = 0; i < 500; i++) check(kinds[names[i % names.length]]());

  const wall = new Map<Kind, number[]>(names.map((name) => [name, []]));
  const cpu = new Map<Kind, number[]>(names.map((name) => [name, []]));
  const triggered = new Map<Kind, number>(names.map((name) => [name, 0]));
  for (const { kind, content } of messages) {
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const count = check(content);
    wall.get(kind)!.push((performance.now() - started) * 1000);
    const used = process.cpuUsage(cpuBefore);
    cpu.get(kind)!.push(used.user + used.system);
    if (count > 0) triggered.set(kind, triggered.get(kind)! + 1);
  }

  console.log(
    `AutoMod matcher: ${fmt(messageCount)} messages of ${fmt(LENGTH)} characters, each against 6 keyword rules of ` +
      `1,000 keywords (and 20 allow_list entries) with 10 patterns on the first; rules compiled in ${fmt(compileMs)} ms.` +
      ` Goal: ≤ ${fmt(GOAL_US)} µs a message.\n`,
  );
  const header = ["messages", "count", "triggered", "p50 µs", "p99 µs", "max µs", "CPU p50 µs", "CPU p99 µs", "goal"];
  const row = (name: string, times: number[], cpuTimes: number[], hits: number) => {
    const { p50, p99 } = summarize(times, 1);
    const cpuSummary = summarize(cpuTimes, 1);
    return [
      name,
      fmt(times.length),
      fmt(hits),
      fmt(p50, 1),
      fmt(p99, 1),
      fmt(Math.max(...times), 1),
      fmt(cpuSummary.p50),
      fmt(cpuSummary.p99),
      cpuSummary.p99 <= GOAL_US ? "met" : "MISSED",
    ];
  };
  const rows = names.map((name) => row(name, wall.get(name)!, cpu.get(name)!, triggered.get(name)!));
  const total = [...triggered.values()].reduce((a, b) => a + b, 0);
  rows.push(row("all", [...wall.values()].flat(), [...cpu.values()].flat(), total));
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of rows) console.log(line(r));
  console.log(
    "\nTime: the six rules' match() one after another, as a message is checked. p50/p99/max: wall clock; CPU: this " +
      "process's CPU time over the same span (the machine's other load does not move it; the goal column judges its " +
      "p99).",
  );
}

main();
