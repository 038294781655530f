// npm run seed                      → migrate, then create the demo world if the database is empty (SQLite, or
//                                      PostgreSQL by DATABASE_URL: scripts/start-postgresql.ts)
// npm run seed -- --reset           → delete the database file first
// npm run seed -- --members N       → also grow the "Guildhall Scale" guild to N members (benchmarks)
import fs from "node:fs";
import { databaseFile, databaseProvider, databaseUrl } from "@/lib/db/database-url";
import { migrateDatabase } from "@/lib/db/migrate";
import { openDatabase } from "@/lib/guild-api/store/db";
import {
  addActivityApplication,
  isDatabaseSeeded,
  seedDemoWorld,
  DEMO_PASSWORD,
  DEMO_USERNAMES,
} from "@/lib/seed/demo-world";
import { scaleGuild } from "@/lib/seed/scale";
import { seedPostgresql } from "./start-postgresql";

export function seed(options: { reset?: boolean; members?: number; quiet?: boolean } = {}): void {
  const log = options.quiet ? () => {} : (line: string) => console.log(line);
  const file = databaseFile();
  if (options.reset)
    for (const suffix of ["", "-wal", "-shm", ".secrets.json"]) fs.rmSync(file + suffix, { force: true });
  migrateDatabase();
  const db = openDatabase(file);
  try {
    if (!isDatabaseSeeded(db)) {
      const world = seedDemoWorld(db);
      log(`Seeded the demo world in ${file}: guild ${world.guildId}, application ${world.applicationId}.`);
      log(`Demo sign-ins: ${DEMO_USERNAMES.join(", ")} (password "${DEMO_PASSWORD}").`);
    } else {
      // Seeded before the sample Activity had an application of its own: add it, so the Activity keeps working.
      const activity = addActivityApplication(db);
      if (activity !== null) log(`Added the sample Activity's own application ${activity}.`);
    }
    if (options.members) {
      const started = Date.now();
      const { guildId, added } = scaleGuild(db, options.members, Date.now(), log);
      log(`Scale guild ${guildId}: added ${added} members in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    }
  } finally {
    db.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const membersAt = args.indexOf("--members");
  const members = membersAt >= 0 ? Number(args[membersAt + 1]) : undefined;
  if (members !== undefined && (!Number.isInteger(members) || members < 1)) {
    console.error("--members needs a positive whole number");
    process.exit(2);
  }
  if (databaseProvider() === "postgresql") {
    // The demo world only: a scale guild or a reset on PostgreSQL is made on SQLite, then copied (npm run db:copy).
    if (members !== undefined || args.includes("--reset")) {
      console.error("On PostgreSQL, seed makes the demo world only: grow or reset a SQLite database, then db:copy it.");
      process.exit(2);
    }
    void seedPostgresql(databaseUrl()).catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
  } else seed({ reset: args.includes("--reset"), members });
}
