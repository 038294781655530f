// The production image's Dockerfile, linted (no Docker engine runs here or in CI; scripts/image-steps.ts performs its
// stages in folders): dockerfile-utils' validator (what the Docker builder would refuse or warn about), then our own
// rules. Each rule is checked on the real file and on a copy broken on purpose, so a rule that can no longer fail
// fails its test.
import { validate } from "dockerfile-utils";
import { describe, expect, test } from "vitest";
import {
  execForm,
  parseCopy,
  parseDockerfile,
  parseEnv,
  parseHealthcheck,
  stageDependencies,
} from "@/scripts/image-steps";
import { read } from "./source-text";
import { SERVER_NODE_FLAGS } from "@/lib/server/node-flags";

/** Debian packages that build native code: they belong in the build stages, never in the runtime image. */
const BUILD_TOOLS = /\b(build-essential|gcc|g\+\+|make|python3|node-gyp|git)\b/;

/** Everything wrong with a Dockerfile, as sentences (none for a good one). */
function dockerfileProblems(text: string): string[] {
  const problems = validate(text).map(
    (diagnostic) => `dockerfile-utils, line ${diagnostic.range.start.line + 1}: ${diagnostic.message}`,
  );
  try {
    problems.push(...ruleProblems(text));
  } catch (error) {
    // What scripts/image-steps.ts cannot perform, CI cannot prove.
    problems.push(`scripts/image-steps.ts: ${(error as Error).message}`);
  }
  return problems;
}

/** Our rules for the image. */
function ruleProblems(text: string): string[] {
  const problems: string[] = [];
  const stages = parseDockerfile(text);
  if (stages.length < 3) problems.push("multi-stage: expected build, production-dependencies and runtime stages");
  const runtime = stages.at(-1);
  if (!runtime) return [...problems, "no FROM"];
  const named = new Map(stages.map((stage) => [stage.name, stage]));
  const instructions = (keyword: string) => runtime.instructions.filter((each) => each.keyword === keyword);

  for (const stage of stages)
    for (const { keyword, args, line } of stage.instructions)
      if (keyword === "RUN" && /\bnpm (install|i|add)\b/.test(args))
        problems.push(`line ${line}: npm install: dependencies come from the lockfile with npm ci only`);

  const user = instructions("USER").at(-1)?.args;
  if (!user || /^(root|0)(:|$)/.test(user)) problems.push("the runtime stage runs as root: it needs USER");

  const healthchecks = instructions("HEALTHCHECK");
  if (healthchecks.length !== 1) problems.push("the runtime stage needs one HEALTHCHECK");
  else if (!parseHealthcheck(healthchecks[0].args).command.join(" ").includes("/readyz"))
    problems.push("HEALTHCHECK must ask /readyz (database, migrations, gateway), not only that the process answers");

  if (!/-slim\b/.test(runtime.from)) problems.push(`the runtime stage starts FROM ${runtime.from}, not a slim image`);
  for (const { args, line } of instructions("RUN")) {
    if (!/^apt-get\b/.test(args)) problems.push(`line ${line}: the runtime stage builds nothing (RUN ${args})`);
    else if (BUILD_TOOLS.test(args)) problems.push(`line ${line}: build tools in the runtime stage (${args})`);
  }
  for (const { args, line } of instructions("COPY")) {
    const copy = parseCopy(args);
    if (copy.from === null) problems.push(`line ${line}: the runtime stage copies from the build stages only`);
    const source = copy.from === null ? undefined : named.get(copy.from);
    const installs = source?.instructions.filter((each) => each.keyword === "RUN" && /\bnpm ci\b/.test(each.args));
    if (
      copy.sources.some((from) => /(^|\/)node_modules$/.test(from)) &&
      !installs?.every((run) => /--omit=dev\b/.test(run.args))
    )
      problems.push(`line ${line}: node_modules from a stage that installs dev dependencies`);
    if (
      copy.sources.some((from) => /(^|\/)\.next$/.test(from)) &&
      !source?.instructions.some((each) => /rm -rf \.next\/cache\b/.test(each.args))
    )
      problems.push(`line ${line}: .next from a stage that keeps .next/cache`);
  }
  const env = Object.assign({}, ...instructions("ENV").map((each) => parseEnv(each.args))) as Record<string, string>;
  if (env.NODE_ENV !== "production") problems.push("the runtime stage needs ENV NODE_ENV=production");
  if (instructions("EXPOSE").length === 0) problems.push("the runtime stage needs EXPOSE");
  if (instructions("CMD").length !== 1) problems.push("the runtime stage needs one CMD");
  else if (execForm(instructions("CMD")[0].args)[0] !== "node")
    problems.push("CMD must run node itself: npm or a wrapper would stand between SIGTERM and the server");
  else if (!SERVER_NODE_FLAGS.every((flag) => execForm(instructions("CMD")[0].args).includes(flag)))
    problems.push(`CMD must pass npm start's V8 flags (${SERVER_NODE_FLAGS.join(" ")})`);
  return problems;
}

const dockerfile = read("Dockerfile");

describe("the Dockerfile", () => {
  test("has no problem", () => {
    expect(dockerfileProblems(dockerfile)).toEqual([]);
  });

  test("stages: build and deps are independent, the runtime copies from both", () => {
    const stages = parseDockerfile(dockerfile);
    expect(stages.map((stage) => [stage.name, stageDependencies(stage)])).toEqual([
      ["build", []],
      ["deps", []],
      ["runtime", ["deps", "build", "build", "build", "build", "build", "build", "deps", "deps"]],
    ]);
  });

  const broken: [string, (text: string) => string, RegExp][] = [
    ["a flag Docker does not know", (text) => text.replace("--interval=", "--intervl="), /Unknown flag: intervl/],
    [
      "a line image-steps cannot read",
      (text) => text.replace("COPY --from=deps ", "COPY --form=deps "),
      /does not know/,
    ],
    ["one stage", (text) => text.split("\nFROM node:20-bookworm AS deps")[0], /multi-stage/],
    ["no USER", (text) => text.replace(/^USER node\n/m, ""), /runs as root/],
    ["USER root", (text) => text.replace(/^USER node$/m, "USER root"), /runs as root/],
    ["a health check of /healthz", (text) => text.replace("/readyz", "/healthz"), /must ask \/readyz/],
    ["no HEALTHCHECK", (text) => text.replace(/^HEALTHCHECK .*\n/m, ""), /one HEALTHCHECK/],
    ["npm install", (text) => text.replace("RUN npm ci --no-audit", "RUN npm install --no-audit"), /npm ci only/],
    ["a full runtime image", (text) => text.replace("node:20-bookworm-slim", "node:20-bookworm"), /not a slim image/],
    [
      "compilers in the runtime",
      (text) => text.replace("install -y -qq --no-install-recommends postgresql-client", "install -y build-essential"),
      /build tools in the runtime stage/,
    ],
    [
      "a build in the runtime",
      (text) => text.replace(/^USER node$/m, "RUN npm run build\nUSER node"),
      /builds nothing/,
    ],
    [
      "dev dependencies in the runtime",
      (text) => text.replace("COPY --from=deps /app/node_modules", "COPY --from=build /app/node_modules"),
      /installs dev dependencies/,
    ],
    ["the build's cache", (text) => text.replace(" && rm -rf .next/cache", ""), /keeps \.next\/cache/],
    ["no NODE_ENV", (text) => text.replace("NODE_ENV=production ", ""), /NODE_ENV=production/],
    ["CMD through npm", (text) => text.replace(/^CMD .*$/m, 'CMD ["npm", "start"]'), /CMD must run node itself/],
    [
      "CMD without the V8 flags",
      (text) => text.replace(/^CMD .*$/m, 'CMD ["node", "--import", "tsx", "server.ts"]'),
      /CMD must pass npm start's V8 flags/,
    ],
  ];
  test.each(broken)("fails with %s", (_, breakIt, problem) => {
    const text = breakIt(dockerfile);
    expect(text).not.toBe(dockerfile);
    expect(dockerfileProblems(text).join("\n")).toMatch(problem);
  });
});
