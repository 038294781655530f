// The demo applications' secrets, generated at seed time and kept beside the database file
// (`<db>.secrets.json`, git-ignored with .data/), never in the repository. Development only:
// production supplies GUILDHALL_CLIENT_ID / GUILDHALL_CLIENT_SECRET (the dashboard) and ACTIVITY_CLIENT_ID /
// ACTIVITY_CLIENT_SECRET (the sample Activity) through the environment.
import fs from "node:fs";
import { secretsPathBase } from "@/lib/db/database-url";

export interface DemoSecrets {
  applicationId: string;
  clientSecret: string;
  botToken: string;
  guildId: string;
  /** The sample Activity's own application (absent in files written before it had one). */
  activityApplicationId?: string;
  activityClientSecret?: string;
}

export const demoSecretsFile = () => `${secretsPathBase()}.secrets.json`;

export function writeDemoSecrets(secrets: DemoSecrets): void {
  fs.writeFileSync(demoSecretsFile(), JSON.stringify(secrets, null, 2), { mode: 0o600 });
}

export function readDemoSecrets(): DemoSecrets | null {
  try {
    return JSON.parse(fs.readFileSync(demoSecretsFile(), "utf8")) as DemoSecrets;
  } catch {
    return null;
  }
}
