import { type GoalState, Login, syncAssignees } from "@loopx/core";
import { type Delivery, FULL_WINDOW } from "@loopx/store";
import { z } from "zod";
import type { AppDeps } from "../deps.ts";
import { commitPlan } from "../intake/commit-plan.ts";
import { type IntakePlan, ignore } from "../intake/intake-plan.ts";
import { envelope, Issue } from "../webhooks/envelope.ts";
import { ignored, type Outcome } from "../webhooks/outcome.ts";

/** `issues.assigned` / `issues.unassigned`: the issue as it stands after the change. */
export const AssigneesEvent = z.object({
  ...envelope,
  action: z.enum(["assigned", "unassigned"]),
  issue: Issue.extend({
    assignees: z.array(z.object({ login: z.string() }).nullable()).default([]),
  }),
});
export type AssigneesEvent = z.infer<typeof AssigneesEvent>;

export interface AssigneeFacts {
  goal: GoalState;
  issue: number;
  /** Everyone GitHub shows as assigned now, in its order. */
  assignees: string[];
  sender: string;
}

/**
 * Whoever is assigned a todo's sub-issue holds the todo (a person, Copilot, any bot): GitHub
 * lets only people with triage access or more assign, so the assignment is the repository's
 * own decision and needs no further authority. Logins LoopX cannot name are left out.
 */
export function planAssignees(f: AssigneeFacts): IntakePlan {
  const todo = f.goal.todos.find((t) => t.subIssue?.number === f.issue);
  if (!todo) return ignore(`#${f.issue} is no todo's sub-issue`);
  const assignees = f.assignees.filter((a) => Login.safeParse(a).success);
  return {
    kind: "apply",
    actor: { kind: "system", reason: `assignees of #${f.issue} changed by ${f.sender}` },
    transition: (s, ctx) => syncAssignees(s, { issue: f.issue, assignees }, ctx),
    effects: [],
  };
}

/** A delivery about a sub-issue's assignees: finds the todo's goal, then planAssignees. */
export async function subIssueAssignees(
  deps: AppDeps,
  delivery: Delivery,
  e: AssigneesEvent,
): Promise<Outcome> {
  if (e.issue.pull_request !== undefined) return ignored("a pull request is not a sub-issue");
  const found = await deps.store.findBySubIssue(e.issue.id);
  if (!found) return ignored("not a todo's sub-issue");
  const goal = await deps.store.loadGoal(found.goalId, FULL_WINDOW);
  if (!goal) return ignored("the goal is gone");
  const plan = planAssignees({
    goal,
    issue: e.issue.number,
    assignees: e.issue.assignees.flatMap((a) => (a ? [a.login] : [])),
    sender: e.sender.login,
  });
  return commitPlan(deps, delivery, { installationId: e.installation.id, goal }, plan);
}
