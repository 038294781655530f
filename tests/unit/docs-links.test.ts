// The README is short and points into docs/, and the docs point at each other and at the code: a page moved or a
// heading renamed must not leave a reader at a dead link. Every relative link and image of README.md, ARCHITECTURE.md
// and docs/**/*.md must name a file or folder that exists, and an anchor must be a heading of the page it names, by
// GitHub's rule for heading ids (GitHub is where these pages are read).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { filesUnder, read, root } from "./source-text";

const markdownFiles = ["README.md", "ARCHITECTURE.md", ...filesUnder("docs").filter((file) => file.endsWith(".md"))]
  .filter((file) => fs.existsSync(path.join(root, file)))
  .map((file) => file.split(path.sep).join("/"));

/** The text with fenced code blocks and inline code blanked out (same length and lines, so offsets still point right). */
function prose(text: string): string {
  const lines = text.split("\n");
  let fence: string | null = null;
  const kept = lines.map((line) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null && marker) {
      fence = marker;
      return "";
    }
    if (fence !== null) {
      // A fence closes with a run of the same character at least as long as the one that opened it.
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
      return "";
    }
    return line;
  });
  // Code spans may wrap onto the next line (a soft break inside backticks), so they are matched over the whole text;
  // a run of N backticks closes only on a run of exactly N.
  return kept.join("\n").replace(/(?<!`)(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, (span) => span.replace(/[^\n]/g, " "));
}

/** GitHub's id for a heading's text: lowercase, only letters, digits, spaces, hyphens and underscores, spaces → -. */
function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // a link's text only
    .replace(/`/g, "")
    .replace(/\*/g, "");
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** Every anchor a page offers: its headings' ids (a repeated one gets -1, -2, …) and explicit HTML ids. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const add = (heading: string) => {
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  };
  const lines = prose(text).split("\n");
  const original = text.split("\n");
  lines.forEach((line, i) => {
    const atx = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (atx) {
      // The heading's own text, code spans included (prose() blanked them for link finding only).
      add(/^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(original[i])![1]);
    } else if (/^ {0,3}(=+|-+)[ \t]*$/.test(line) && i > 0 && /^ {0,3}[^\s|>*+-]/.test(lines[i - 1])) {
      add(original[i - 1]); // a setext heading: the line above, underlined
    }
    for (const match of line.matchAll(/<a\s[^>]*(?:name|id)="([^"]+)"/g)) anchors.add(match[1]);
  });
  return anchors;
}

interface Link {
  line: number;
  target: string;
}

/** Inline links and images `[text](target)`, `![alt](target "title")`, and reference definitions `[ref]: target`. */
function linksOf(text: string): Link[] {
  const body = prose(text);
  const lineAt = (offset: number) => body.slice(0, offset).split("\n").length;
  const inline = [
    ...body.matchAll(/!?\[(?:[^\][]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+"[^"]*"|\s+'[^']*')?\s*\)/g),
  ];
  const definitions = [...body.matchAll(/^ {0,3}\[[^\]]+\]:[ \t]*(<[^>]*>|\S+)/gm)];
  return [...inline, ...definitions]
    .map((match) => ({ line: lineAt(match.index), target: match[1].replace(/^<(.*)>$/, "$1") }))
    .sort((a, b) => a.line - b.line);
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//");

/** The dead links of one markdown file, each as `file:line target: why`. */
function deadLinks(file: string): string[] {
  const text = read(file);
  const dead: string[] = [];
  for (const { line, target } of linksOf(text)) {
    if (isExternal(target)) continue;
    const hash = target.indexOf("#");
    const pathPart = (hash === -1 ? target : target.slice(0, hash)).replace(/\?.*$/, "");
    const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
    const where = `${file}:${line} ${target}`;
    // A leading / is the repository's root on GitHub; anything else is relative to the page's own folder.
    const resolved = pathPart.startsWith("/")
      ? path.join(root, decodeURIComponent(pathPart))
      : path.join(root, path.dirname(file), decodeURIComponent(pathPart));
    if (pathPart !== "" && !fs.existsSync(resolved)) {
      dead.push(`${where}: no such file or folder (${path.relative(root, resolved) || "."})`);
      continue;
    }
    if (anchor === null || anchor === "") continue;
    const page = pathPart === "" ? path.join(root, file) : resolved;
    // Anchors into code or folders are GitHub's line and file views: only a markdown page's headings can be checked.
    if (!page.endsWith(".md") || fs.statSync(page).isDirectory()) continue;
    if (!anchorsOf(fs.readFileSync(page, "utf8")).has(anchor))
      dead.push(`${where}: no heading #${anchor} in ${path.relative(root, page)}`);
  }
  return dead;
}

describe("links in the README and docs/", () => {
  test("the README and the docs folder are among the pages checked", () => {
    expect(markdownFiles).toContain("README.md");
    expect(markdownFiles).toContain("docs/README.md");
  });

  test("heading ids follow GitHub's rule", () => {
    expect(slug("Tokens and scopes: a documented superset of Discord")).toBe(
      "tokens-and-scopes-a-documented-superset-of-discord",
    );
    expect(slug("Pointing the dashboard at another guild API (Discord's)")).toBe(
      "pointing-the-dashboard-at-another-guild-api-discords",
    );
    expect(slug("`npm test`")).toBe("npm-test");
    expect(slug("The dashboard, live")).toBe("the-dashboard-live");
    expect([...anchorsOf("# A\n\n## A\n\n```\n# not a heading\n```\n\n## A\n")]).toEqual(["a", "a-1", "a-2"]);
  });

  test("links in code are not links", () => {
    const text = "`[x](nowhere.md)`\n\n```md\n[y](nowhere.md)\n```\n\n``a `[z](nowhere.md)` b``\n\n[w](here.md)\n";
    expect(linksOf(text).map((link) => link.target)).toEqual(["here.md"]);
  });

  test.each(markdownFiles)("%s: every relative link and anchor leads somewhere", (file) => {
    expect(deadLinks(file)).toEqual([]);
  });
});
