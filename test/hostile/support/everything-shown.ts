/**
 * Everything LoopX has shown or kept, as text, for hostile scenarios to search: what GitHub
 * shows (issue and PR titles and bodies, every comment) and every row of every table.
 */
import type { Store } from "@loopx/store";
import { dbOf, rowsOf, sql } from "@loopx/store/testing";
import { Octokit } from "@octokit/rest";
import type { Sandbox } from "../../../packages/sandbox/src/index.ts";

const TABLES = [
  "goals",
  "todos",
  "gates",
  "ticks",
  "evidence",
  "handoffs",
  "notes",
  "events",
  "outbox",
  "projections",
  "pull_requests",
];

export interface Shown {
  /** One entry per issue/PR title, body and comment LoopX's repository shows. */
  github: string[];
  /** Every stored row, as JSON. */
  stored: string[];
}

export async function everythingShown(
  sandbox: Sandbox,
  store: Store,
  repo = { owner: "acme", repo: "widgets" },
): Promise<Shown> {
  const alice = new Octokit({
    baseUrl: sandbox.url,
    auth: sandbox.createUserToken("alice"),
    request: { retries: 0 },
  });
  const issues = await alice.paginate(alice.rest.issues.listForRepo, {
    ...repo,
    state: "all",
    per_page: 100,
  });
  const github: string[] = [];
  for (const issue of issues) {
    github.push(issue.title, issue.body ?? "");
    const comments = await alice.paginate(alice.rest.issues.listComments, {
      ...repo,
      issue_number: issue.number,
      per_page: 100,
    });
    for (const c of comments) github.push(c.body ?? "");
  }
  const stored: string[] = [];
  for (const table of TABLES) {
    const rows = await dbOf(store).execute(sql.raw(`SELECT * FROM ${table}`));
    for (const row of rowsOf(rows)) stored.push(JSON.stringify(row));
  }
  return { github, stored };
}
