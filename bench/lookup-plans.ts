/**
 * The plans of the lookups a webhook makes before it knows which goal it concerns, on a
 * grown store: whether a comment was applied (the goal's events) and whose sub-issue an
 * issue is (every todo in the store); and of the notes every transition loads (the goal's
 * thread). EXPLAIN, not a timing: a sequential scan here grows with a goal's age or with
 * the whole store, on every comment, issue event or transition.
 */
import type { Store } from "@loopx/store";
import {
  commentLookup,
  dbOf,
  notesLookup,
  rowsOf,
  sql,
  subIssueLookup,
} from "@loopx/store/testing";
import { z } from "zod";
import { row } from "./sections.ts";
import type { Row } from "./table.ts";

const PlanRow = z.object({ "QUERY PLAN": z.string() });

type Lookup = ReturnType<typeof commentLookup> | ReturnType<typeof subIssueLookup>;

async function explain(store: Store, statement: Lookup): Promise<string[]> {
  const rows = rowsOf(await dbOf(store).execute(sql`EXPLAIN ${statement}`));
  return rows.map((r) => PlanRow.parse(r)["QUERY PLAN"]);
}

/** Index names the plans read, or "Seq Scan on …" where a plan reads a whole table. */
function reads(plan: string[]): string {
  const scans = plan.flatMap((line) => {
    const index = /Index(?: Only)? Scan(?: Backward)? using (\w+)/.exec(line);
    if (index) return [index[1] ?? ""];
    const bitmap = /Bitmap Index Scan on (\w+)/.exec(line);
    if (bitmap) return [bitmap[1] ?? ""];
    const seq = /Seq Scan on (\w+)/.exec(line);
    return seq ? [`Seq Scan on ${seq[1]}`] : [];
  });
  return scans.join(", ");
}

export async function lookupPlanRows(
  store: Store,
  section: string,
  grownGoalId: string,
  what: string,
): Promise<Row[]> {
  const db = dbOf(store);
  const comment = reads(await explain(store, commentLookup(grownGoalId, 1_234_567)));
  const subIssue = reads(await explain(store, subIssueLookup(db, 1_234_567)));
  const notes = reads(await explain(store, notesLookup(grownGoalId)));
  // The index made for each: another (the goal's events by id, say) still reads them all.
  const only = (read: string, index: string) => read === index;
  return [
    row(
      section,
      `applied-comment check on the goal with ${what}: EXPLAIN reads`,
      comment,
      "events_comment_idx alone",
      only(comment, "events_comment_idx"),
    ),
    row(
      section,
      "an issue event's sub-issue lookup over every todo in the store: EXPLAIN reads",
      subIssue,
      "todos_sub_issue_idx alone",
      only(subIssue, "todos_sub_issue_idx"),
    ),
    row(
      section,
      `the notes a transition loads on the goal with ${what}: EXPLAIN reads`,
      notes,
      "notes_waiting_idx and notes_delivered_idx, no Seq Scan",
      !notes.includes("Seq Scan") &&
        notes.includes("notes_waiting_idx") &&
        notes.includes("notes_delivered_idx"),
    ),
  ];
}
