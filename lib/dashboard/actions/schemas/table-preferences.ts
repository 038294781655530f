// Column visibility (saveTableColumnsAction): the table, and every column the moderator wants hidden in it, each one
// the table lets hide (lib/dashboard/table-columns.ts).
import { z } from "zod";
import { HIDEABLE_COLUMNS, TABLE_IDS, type TableId } from "@/lib/dashboard/table-columns";

/** More than any table has to hide: a longer list is not from the tables. */
export const HIDDEN_COLUMNS_MAX = 20;
/** Column ids are short words ("joined", "outcome"). */
const COLUMN_ID_MAX = 32;

export const SaveTableColumnsInputSchema = z
  .object({
    table: z.enum(TABLE_IDS as [TableId, ...TableId[]], { message: "Not one of the dashboard's tables." }),
    hidden: z
      .array(z.string().max(COLUMN_ID_MAX, "Not a column id."))
      .max(HIDDEN_COLUMNS_MAX, `At most ${HIDDEN_COLUMNS_MAX} columns.`),
  })
  .superRefine(({ table, hidden }, ctx) => {
    // zod runs this even when the fields above failed: a list or an id refused already says enough.
    if (hidden.length > HIDDEN_COLUMNS_MAX) return;
    const hideable: readonly string[] = HIDEABLE_COLUMNS[table];
    hidden.forEach((column, index) => {
      if (column.length <= COLUMN_ID_MAX && !hideable.includes(column))
        ctx.addIssue({
          code: "custom",
          path: ["hidden", index],
          message: `The ${table} table has no column "${column}" to hide.`,
        });
    });
  });
export type SaveTableColumnsInput = z.input<typeof SaveTableColumnsInputSchema>;
