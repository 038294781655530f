// Reading the project's own source as text, for the tests that check every door has a rule (the policy tables).
import fs from "node:fs";
import path from "node:path";

export const root = path.join(__dirname, "../..");

export const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");

/** The code of a file without its comments (which mention calls they do not make). */
export const code = (file: string) =>
  read(file)
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "");

/** Every file below `dir` (relative to the project), as project-relative paths. */
export function filesUnder(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(file) : [file];
  });
}
