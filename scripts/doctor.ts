// npm run doctor -- --api <base URL> --bot-token <token> [--guild <id>] [--public-url <origin>]
// Checks a guild API (Guildhall's, strict or not, or Discord's: https://discord.com/api) for what the dashboard needs in
// bot mode, prints what works and what to change, and exits 1 when the dashboard cannot run (2 on a usage error).
// Without flags it reads GUILD_API_URL, GUILD_API_BOT_TOKEN and PUBLIC_URL, as the dashboard does.
import { parseArgs } from "node:util";
import { formatDoctorReport, runDoctor } from "@/lib/dashboard/doctor";

const USAGE = "usage: npm run doctor -- --api <base URL> --bot-token <token> [--guild <id>] [--public-url <origin>]";

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        api: { type: "string" },
        "bot-token": { type: "string" },
        guild: { type: "string" },
        "public-url": { type: "string" },
      },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const api = values.api ?? process.env.GUILD_API_URL;
  const botToken = values["bot-token"] ?? process.env.GUILD_API_BOT_TOKEN;
  if (!api || !botToken) {
    console.error(USAGE);
    return 2;
  }
  const publicUrl = values["public-url"] ?? process.env.PUBLIC_URL ?? `http://localhost:${process.env.PORT ?? 3000}`;
  const report = await runDoctor({ api: api.replace(/\/v\d+\/?$/, ""), botToken, guildId: values.guild, publicUrl });
  console.log(formatDoctorReport(report));
  return report.usable ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
