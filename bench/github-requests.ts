/**
 * `npm run bench:requests`: how many GitHub requests the App makes for a goal start and for
 * a gate approval, counted exactly from the sandbox's request log (the real app over HTTP,
 * embedded PGlite). Figures, not pass criteria.
 */
import { pathToFileURL } from "node:url";
import { openGate } from "@loopx/core";
import { startHarness } from "../test/support/app-harness.ts";

export interface Count {
  requests: number;
  writes: number;
  contentCreating: number;
}

export async function benchRequests(): Promise<{ start: Count; approval: Count }> {
  const h = await startHarness();
  try {
    const alice = h.as("alice");
    const counted = async (act: () => Promise<unknown>): Promise<Count> => {
      await h.settle();
      await act();
      // Everything after the person's own request is the App's doing (and GitHub's echoes).
      const from = h.sandbox.requests().length;
      await h.settle();
      const made = h.sandbox.requests().slice(from);
      return {
        requests: made.length,
        writes: made.filter((r) => r.method !== "GET").length,
        contentCreating: made.filter((r) => r.contentCreating).length,
      };
    };
    const { data: issue } = await alice.rest.issues.create({
      owner: "acme",
      repo: "widgets",
      title: "Speed up rendering",
      body: "Rendering takes 3 s.",
    });
    const start = await counted(() =>
      alice.rest.issues.addLabels({
        owner: "acme",
        repo: "widgets",
        issue_number: issue.number,
        labels: ["loopx"],
      }),
    );
    const goal = await h.store.findGoalByIssue(h.repo.id, issue.number);
    if (!goal) throw new Error("the label started no goal");
    await h.store.apply(goal.goal.id, (s, now) =>
      openGate(
        s,
        { question: "Ship it?", scopes: ["release"] },
        { actor: { kind: "app" }, now, newId: h.app.deps.newId },
      ),
    );
    h.app.outbox.kick();
    const approval = await counted(() =>
      alice.rest.issues.createComment({
        owner: "acme",
        repo: "widgets",
        issue_number: issue.number,
        body: "/loopx approve G1",
      }),
    );
    return { start, approval };
  } finally {
    await h.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { start, approval } = await benchRequests();
  const row = (what: string, c: Count) =>
    console.log(
      `${what.padEnd(16)} ${String(c.requests).padStart(3)} requests, ${c.writes} writes (${c.contentCreating} content-creating)`,
    );
  row("goal start", start);
  row("gate approval", approval);
}
