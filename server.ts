// Guildhall's entry point: the dashboard, the built-in guild API and the Activity on one port.
// `npm start` prepares the database and the build first (scripts/start.ts), then runs this.
import { startGuildhallServer } from "@/lib/server/create-server";

export async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? "127.0.0.1";
  const dev = process.argv.includes("--dev");
  const withNext = process.env.GUILDHALL_API_ONLY !== "1";
  const app = await startGuildhallServer({ port, host, withNext, dev });
  console.log(`Guildhall ready on ${app.url}${withNext ? "" : " (guild API only)"}`);
  const stop = () => void app.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (import.meta.url === `file://${process.argv[1]}`) void main();
