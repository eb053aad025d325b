import { uuid } from "drizzle-orm/pg-core";
import { goals } from "./goals.ts";

/** A row that belongs to one goal and goes with it. */
export const goalRef = () =>
  uuid("goal_id")
    .notNull()
    .references(() => goals.id, { onDelete: "cascade" });
