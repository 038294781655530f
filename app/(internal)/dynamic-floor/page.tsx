// Next's floor for a dynamic page: rendered per request (connection()), reading nothing, under the root layout only.
// `npm run bench:navigation` compares the members page's time to first byte with this page's, in the same run, so
// the figure says what the dashboard adds to what Next itself costs.
import type { Metadata } from "next";
import { connection } from "next/server";

export const metadata: Metadata = { title: "Dynamic floor", robots: { index: false } };

export default async function DynamicFloorPage() {
  await connection();
  return <main className="p-6">Rendered on request.</main>;
}
