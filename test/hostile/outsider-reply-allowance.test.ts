import { OUTSIDER_REPLY_LIMITS } from "@loopx/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";
import { botComments, comment, goal, openTestGate, startGoal } from "../support/goal-steps.ts";

const repo = { owner: "acme", repo: "widgets" } as const;
const OUTSIDERS = Array.from({ length: 10 }, (_, i) => `stranger${i + 1}`);
const PER_OUTSIDER = 10;

/**
 * A burst of `/loopx` commands from people without write access (anyone can comment on a
 * public repository) is answered from an allowance of its own — a few replies per person
 * per repository, a ceiling per installation — so it can never spend the budget LoopX's own
 * comments come from: after 100 outsider commands, the gate comment still goes out.
 */
describe("hostile: 100 outsider commands cannot crowd out LoopX's own comments", () => {
  let h: Harness;
  let number: number;
  let goalId: string;
  beforeAll(async () => {
    const collaborators = Object.fromEntries([
      ["alice", "maintain"],
      ...OUTSIDERS.map((login) => [login, "read"]),
    ]);
    h = await startHarness({ collaborators });
    ({ number, goalId } = await startGoal(h, "alice"));
  });
  afterAll(() => h.close());

  it("the burst gets a bounded number of replies, the gate comment is posted", async () => {
    const commands = ["/loopx approve G1", "/loopx stop", "/loopx help", "/loopx frobnicate"];
    for (let round = 0; round < PER_OUTSIDER; round++) {
      for (const login of OUTSIDERS) {
        await h.as(login).rest.issues.createComment({
          ...repo,
          issue_number: number,
          body: commands[round % commands.length] ?? "",
        });
      }
    }
    await h.settle();
    const replies = (await botComments(h, number)).filter((c) => c.key?.startsWith("reply:"));
    // A few per person, within the installation's ceiling — far fewer than the commands.
    const allowance = OUTSIDER_REPLY_LIMITS;
    expect(replies.length).toBeGreaterThan(0);
    expect(replies.length).toBeLessThanOrEqual(
      Math.min(OUTSIDERS.length * allowance.perPersonPerHour, allowance.perHour),
    );
    expect((await goal(h, goalId)).goal.status).toBe("active");

    await openTestGate(h, goalId, { question: "May LoopX deploy?", scopes: ["deploy"] });
    const gate = (await botComments(h, number)).filter((c) => c.key === "gate:G1:opened");
    expect(gate).toHaveLength(1);
    // GitHub never had to refuse anything.
    expect(h.sandbox.requests().filter((r) => r.status === 403 || r.status === 429)).toEqual([]);
  }, 240_000);

  it("each outsider gets at most a few replies, however many commands they send", async () => {
    const alice = h.as("alice");
    const all = await alice.paginate(alice.rest.issues.listComments, {
      ...repo,
      issue_number: number,
      per_page: 100,
    });
    const byId = new Map(all.map((c) => [c.id, c.user?.login ?? ""]));
    const perPerson = new Map<string, number>();
    for (const c of await botComments(h, number)) {
      const id = Number(/^reply:comment:(\d+)$/.exec(c.key ?? "")?.[1]);
      const who = byId.get(id);
      if (who) perPerson.set(who, (perPerson.get(who) ?? 0) + 1);
    }
    for (const [who, n] of perPerson) {
      expect(n, who).toBeLessThanOrEqual(OUTSIDER_REPLY_LIMITS.perPersonPerHour);
    }
  });

  it("a writer is still answered: their replies come from LoopX's own budget", async () => {
    const id = await comment(h, "alice", number, "/loopx approve G9");
    const reply = (await botComments(h, number)).find((c) => c.key === `reply:comment:${id}`);
    expect(reply?.body).toContain("There is no gate G9");
  });
});
