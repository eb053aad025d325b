/** Steps the operations scenarios share: file and label an issue, read keyed comments. */
import { readKey } from "@loopx/github";
import { dbOf, sql } from "@loopx/store/testing";
import type { Harness } from "./app-harness.ts";

export async function fileIssue(h: Harness, login: string, title: string): Promise<number> {
  const { data } = await h
    .as(login)
    .rest.issues.create({ owner: "acme", repo: "widgets", title, body: `${title}.` });
  await h.settle();
  return data.number;
}

export async function label(h: Harness, login: string, number: number): Promise<void> {
  await h.as(login).rest.issues.addLabels({
    owner: "acme",
    repo: "widgets",
    issue_number: number,
    labels: ["loopx"],
  });
}

/** The app's comments on an issue carrying `key` (as the outbox hides it). */
export async function keyedComments(h: Harness, number: number, key: string) {
  const { data } = await h
    .as("alice")
    .rest.issues.listComments({ owner: "acme", repo: "widgets", issue_number: number });
  return data.filter((c) => readKey(c.body ?? "") === key);
}

/** Makes every pending delivery and write due now, as time passing would. */
export async function makeEverythingDue(h: Harness): Promise<void> {
  await dbOf(h.store).execute(
    sql`UPDATE outbox SET next_attempt_at = now() WHERE done_at IS NULL AND dead_at IS NULL`,
  );
  await dbOf(h.store).execute(
    sql`UPDATE inbox SET next_attempt_at = now() WHERE processed_at IS NULL`,
  );
}

/** Kicks the loops and settles until `done()` or the deadline (retries fall due in real time). */
export async function waitUntil(
  h: Harness,
  done: () => Promise<boolean>,
  ms = 15_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`not done after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
    h.app.inbox.kick();
    h.app.outbox.kick();
    await h.settle();
  }
}
