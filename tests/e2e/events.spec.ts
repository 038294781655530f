// The Events section in a real browser, signed in through the real OAuth2 flow as mod (Manage Events): the seeded
// events with their interested counts, create an external event with a local date and time (checked through the API
// as the UTC instant the browser's time zone gives), edit it, start, end; cancel and delete another; the calendar
// shows the events on their days. Every change is checked through the guild API with the demo bot's token.
import { expect, test, type Page } from "@playwright/test";
import { api, hydrated, screenshot, signIn } from "./helpers";

const shot = (page: Page, name: string) => screenshot(page, `events-${name}`);

interface Event {
  id: string;
  name: string;
  status: number;
  scheduled_start_time: string;
  scheduled_end_time: string | null;
  entity_metadata: { location: string } | null;
}

/** A datetime-local value some days ahead, at 18:30 in the browser's time zone (the page's). */
function localDay(daysAhead: number, hour: number): { input: string; date: Date } {
  const date = new Date();
  date.setDate(date.getDate() + daysAhead);
  date.setHours(hour, 30, 0, 0);
  const pad = (n: number) => String(n).padStart(2, "0");
  return {
    input: `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(hour)}:30`,
    date,
  };
}

test.describe.configure({ mode: "serial" });

test("as mod: list, create with a local time, edit, start, end, cancel, delete; the calendar", async ({ page }) => {
  test.setTimeout(120_000);
  const { world, call } = api();
  const guildId = world.guildId;
  const events = async () => (await call<Event[]>("GET", `/guilds/${guildId}/scheduled-events`)).body;
  const made: string[] = [];
  try {
    await signIn(page, "mod", `/guilds/${guildId}/events`);
    await hydrated(page);
    const list = page.getByRole("list", { name: "Events" });
    await expect(list.getByRole("listitem", { name: "Monthly Town Hall" })).toContainText("23 interested");
    await expect(list.getByRole("listitem", { name: "Launch Party" })).toContainText("Ended");
    await shot(page, "list");

    // ── Create: an external event, its times typed in the browser's time zone ──
    const start = localDay(3, 18);
    const end = localDay(3, 20);
    await page.getByRole("button", { name: "Create event" }).click();
    const dialog = page.getByRole("dialog", { name: "Create event" });
    await dialog.getByLabel("Where").selectOption({ label: "Somewhere else" });
    await dialog.getByLabel("Location").fill("Riverside park");
    await dialog.getByLabel("Event topic").fill("E2E picnic");
    await dialog.getByLabel("Start date and time").fill(start.input);
    await dialog.getByRole("button", { name: "Create event" }).click();
    await expect(dialog.getByText("External events need an end.")).toBeVisible();
    await dialog.getByLabel("End date and time").fill(end.input);
    await dialog.getByLabel("Description").fill("Bring a blanket");
    await dialog.getByRole("button", { name: "Create event" }).click();
    await expect(dialog).toBeHidden();
    const picnic = page.getByRole("listitem", { name: "E2E picnic" });
    await expect(picnic).toContainText("0 interested");
    const created = (await events()).find((event) => event.name === "E2E picnic")!;
    made.push(created.id);
    expect(created.scheduled_start_time).toBe(start.date.toISOString());
    expect(created.scheduled_end_time).toBe(end.date.toISOString());
    expect(created.entity_metadata).toEqual({ location: "Riverside park" });

    // ── Edit ──
    await picnic.getByRole("button", { name: "Edit" }).click();
    const edit = page.getByRole("dialog", { name: "Edit event" });
    await expect(edit.getByLabel("Start date and time")).toHaveValue(start.input);
    await edit.getByLabel("Location").fill("Harbour lawn");
    await edit.getByRole("button", { name: "Save event" }).click();
    await expect(edit).toBeHidden();
    await expect(picnic).toContainText("Harbour lawn");

    // ── Start, then end ──
    await picnic.getByRole("button", { name: "Start event" }).click();
    await expect(picnic).toContainText("Live");
    expect((await events()).find((event) => event.id === created.id)?.status).toBe(2);
    await picnic.getByRole("button", { name: "End event" }).click();
    await expect(picnic).toContainText("Ended");
    await expect(picnic.getByRole("button", { name: "Edit" })).toHaveCount(0);
    expect((await events()).find((event) => event.id === created.id)?.status).toBe(3);

    // ── Cancel one made through the API, then delete it ──
    const other = await call<Event>("POST", `/guilds/${guildId}/scheduled-events`, {
      name: "E2E quiz",
      privacy_level: 2,
      entity_type: 3,
      entity_metadata: { location: "Online" },
      scheduled_start_time: localDay(5, 19).date.toISOString(),
      scheduled_end_time: localDay(5, 21).date.toISOString(),
    });
    made.push(other.body.id);
    await page.reload();
    await hydrated(page);
    const quiz = page.getByRole("listitem", { name: "E2E quiz" });
    await quiz.getByRole("button", { name: "Cancel event" }).click();
    await expect(quiz).toContainText("Canceled");
    await quiz.getByRole("button", { name: "Delete" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete E2E quiz?" });
    await expect(confirm).toContainText("can't be undone");
    await confirm.getByRole("button", { name: "Delete event" }).click();
    await expect(quiz).toHaveCount(0);
    expect((await events()).some((event) => event.id === other.body.id)).toBe(false);

    // ── The calendar: each event on its day ──
    await page.getByRole("link", { name: "Calendar" }).click();
    const grid = page.getByRole("grid");
    await expect(grid).toBeVisible();
    if (start.date.getMonth() !== new Date().getMonth()) await page.getByRole("button", { name: "Next month" }).click();
    await expect(
      grid.getByRole("gridcell", { name: start.date.toDateString() }).getByRole("button", { name: /E2E picnic/ }),
    ).toBeVisible();
    await shot(page, "calendar");
  } finally {
    for (const id of made) await call("DELETE", `/guilds/${guildId}/scheduled-events/${id}`);
  }
});
