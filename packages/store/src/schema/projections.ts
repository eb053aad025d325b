import { bigint, boolean, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { tstz } from "./columns.ts";
import { goalRef } from "./goal-ref.ts";

/**
 * What the app last wrote to each GitHub surface of a goal: the sticky status comment's id
 * (found again by id and author, never by marker alone) and the issue body as read before
 * the last rewrite, so a human edit that our PATCH overwrote can be restored.
 */
export const projections = pgTable(
  "projections",
  {
    goalId: goalRef(),
    /** `status` (the sticky comment), `body` (the managed block in the issue body) or `comment:<key>` (a keyed comment). */
    target: text("target").notNull(),
    githubId: bigint("github_id", { mode: "number" }),
    /** For `body`: the body as read just before our last PATCH. */
    readBody: text("read_body"),
    /** For `body`: the body our last PATCH wrote. */
    wroteBody: text("wrote_body"),
    /**
     * For `body`: no edit by anyone else has been seen since our last PATCH, so GitHub holds
     * `wroteBody` and the next write needs no read first. A person's edit clears it.
     */
    wroteIsCurrent: boolean("wrote_is_current").notNull().default(false),
    updatedAt: tstz("updated_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.goalId, t.target] })],
);
