import { AWAITING_PULL_REQUEST, type GoalState } from "@loopx/core";
import { parseChecklist } from "@loopx/github";
import { openStore, type Store } from "@loopx/store";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { z } from "zod";
import { freshDatabase } from "../support/databases.ts";
import { openPulls, personClient, playTick } from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

const serverUrl = inject("pgUrl");
const skipReason = serverUrl ? "" : ` — skipped: ${inject("pgSkipReason")}`;
const repo = { owner: "acme", repo: "widgets" } as const;
const IssueBody = z.object({ body: z.string() });

/**
 * Scenario: a goal whose todos arrive over time (`/loopx todo add`), each worked on its own
 * branch and each PR held at its own merge gate. The owner holds every gate back and does the
 * one non-code todo herself. Todos keep finishing on their branches — one of them over two
 * slices, its PR already open after the first — and none of their boxes may be ticked before
 * its PR merges. Then the owner approves and merges each PR: each merge completes its todo
 * with the merge commit as evidence, and the last one finishes the goal.
 */
describe.skipIf(!serverUrl)(
  `e2e: todos finishing on their branches while earlier PRs wait at their gates (PostgreSQL)${skipReason}`,
  () => {
    let h: TickHarness;
    let store: Store;
    let drop = async () => {};
    beforeAll(async () => {
      const db = await freshDatabase(serverUrl ?? "");
      drop = db.drop;
      store = await openStore({ databaseUrl: db.url });
      h = await startTickHarness({ store });
    });
    afterAll(async () => {
      await h?.close();
      await store?.close();
      await drop();
    });

    const alice = () => personClient(h, "alice");
    const load = async (goalId: string): Promise<GoalState> => {
      const s = await h.store.loadGoal(goalId);
      if (!s) throw new Error("the goal is gone");
      return s;
    };
    // The sandbox's clock only moves when told; here GitHub's time passes as the test's does,
    // or the App's JWTs (signed on the wall clock) would read as issued in its future.
    const settled = async () => {
      await h.sandbox.clock.advance(Math.max(0, Date.now() - h.sandbox.clock.now()));
      await h.sandbox.idle();
      await h.settle();
    };
    const addTodo = async (issue: number, title: string) => {
      await alice().rest.issues.createComment({
        ...repo,
        issue_number: issue,
        body: `/loopx todo add ${title}`,
      });
      await settled();
    };
    const body = (issue: number) => IssueBody.parse(h.sandbox.issue(h.repo.fullName, issue)).body;
    const lineOf = (issue: number, key: string) =>
      body(issue)
        .split("\n")
        .find((l) => l.includes(` ${key} `)) ?? "";

    it("no box is ticked while its PR is open; each merge completes its todo", async () => {
      h.sandbox.ci.rule = () => "success";
      const goal = await h.startGoal("Catalogue every part");
      const issue = goal.goal.issue.number;
      const id = goal.goal.id;

      await addTodo(issue, "List the gears");
      const t1 = await playTick(h, issue, { "gears.md": "- gear\n" }, { complete: true });
      await settled();
      await addTodo(issue, "List the cogs");
      const t2 = await playTick(h, issue, { "cogs.md": "- cog\n" }, { complete: true });
      await settled();
      await addTodo(issue, "Ask the vendor for the spring sizes");
      await addTodo(issue, "List the springs");
      // The non-code todo is the owner's to do: she ticks its box herself.
      const before = body(issue);
      expect(parseChecklist(before).find((i) => i.todo === "T3")).toEqual({
        todo: "T3",
        checked: false,
      });
      await alice().rest.issues.update({
        ...repo,
        issue_number: issue,
        body: before.replace(/- \[ \] T3 /, "- [x] T3 "),
      });
      await settled();
      const t4 = await playTick(h, issue, { "springs.md": "- spring\n" }, { complete: true });
      await settled();
      await addTodo(issue, "List the levers");
      // T5 takes two slices: the first pushes (its PR opens), the second finishes it.
      const t5a = await playTick(h, issue, { "levers.md": "- lever\n" });
      await settled();
      const t5b = await playTick(
        h,
        issue,
        { "levers.md": "- lever\n- long lever\n" },
        {
          complete: true,
        },
      );
      await settled();
      await addTodo(issue, "List the bolts");
      const t6 = await playTick(h, issue, { "bolts.md": "- bolt\n" }, { complete: true });
      await settled();

      const branchWork = [t1, t2, t4, t5b, t6];
      expect(branchWork.map((t) => t.todo)).toEqual(["T1", "T2", "T4", "T5", "T6"]);
      expect(t5a.branch).toBe(t5b.branch);
      const pulls = await openPulls(h);
      const prOf = (branch: string) => {
        const found = pulls.find((p) => p.head.ref === branch);
        if (!found) throw new Error(`no PR was opened for ${branch}`);
        return found;
      };
      let state = await load(id);
      for (const tick of branchWork) {
        const pr = prOf(tick.branch);
        expect(pr.state).toBe("open");
        // Each PR waits at a merge gate of its own, bound to its head.
        const gates = state.gates.filter((g) => g.pr?.number === pr.number);
        expect(gates.map((g) => [g.status, g.pr?.headSha])).toEqual([["open", tick.sha]]);
        const todo = state.todos.find((t) => t.key === tick.todo);
        expect([tick.todo, todo?.status, todo?.blockedReason, todo?.completion]).toEqual([
          tick.todo,
          "blocked",
          AWAITING_PULL_REQUEST,
          null,
        ]);
        expect(lineOf(issue, tick.todo)).toContain("- [ ] ");
        expect(lineOf(issue, tick.todo)).toContain("(waiting for its pull request to merge)");
      }
      expect(state.todos.find((t) => t.key === "T3")?.status).toBe("done");
      expect(parseChecklist(body(issue))).toEqual(
        ["T1", "T2", "T3", "T4", "T5", "T6"].map((todo) => ({ todo, checked: todo === "T3" })),
      );
      expect(state.goal.status).toBe("active");

      // The owner approves and merges the later PRs first, the held-back first one last.
      for (const tick of [...branchWork.slice(1), t1]) {
        const pr = prOf(tick.branch);
        await alice().rest.pulls.createReview({
          ...repo,
          pull_number: pr.number,
          commit_id: tick.sha,
          event: "APPROVE",
        });
        await settled();
        const { data: merged } = await alice().rest.pulls.merge({
          ...repo,
          pull_number: pr.number,
        });
        await settled();
        state = await load(id);
        const todo = state.todos.find((t) => t.key === tick.todo);
        expect([tick.todo, todo?.status]).toEqual([tick.todo, "done"]);
        const proof = state.evidence.filter((e) => todo?.completion?.evidenceIds.includes(e.id));
        expect(proof.map((e) => [e.kind, e.sha])).toEqual([["pr", merged.sha]]);
        expect(parseChecklist(body(issue)).find((i) => i.todo === tick.todo)?.checked).toBe(true);
      }
      expect(state.goal.status).toBe("done");
    }, 420_000);
  },
);
