import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";
import { comment, reactions, replyTo } from "../support/goal-steps.ts";

const o = { owner: "acme", repo: "widgets" } as const;

/**
 * Scenario: `/loopx help` where there is no goal — a plain issue and a pull request — by a
 * writer, by someone with read access only, and by a bot. Nothing starts anywhere.
 */
describe("e2e: /loopx help on any issue or pull request", () => {
  let h: Harness;
  let issue: number;
  let pr: number;

  beforeAll(async () => {
    h = await startHarness({ onPostgres: true });
    issue = (await h.as("rita").rest.issues.create({ ...o, title: "How do I use this?" })).data
      .number;
    h.sandbox.push("acme/widgets", "docs-typo", { "docs.md": "fixed\n" }, "wendy");
    pr = (
      await h
        .as("wendy")
        .rest.pulls.create({ ...o, head: "docs-typo", base: "main", title: "Fix a typo" })
    ).data.number;
    await h.settle();
  });
  afterAll(() => h.close());

  const noGoals = async () => {
    expect(await h.store.findGoalByIssue(h.repo.id, issue)).toBeNull();
    expect(await h.store.findGoalByIssue(h.repo.id, pr)).toBeNull();
  };

  for (const where of ["an issue", "a pull request"] as const) {
    it(`a writer's help on ${where} without a goal: seen, answered with the list, done`, async () => {
      const number = where === "an issue" ? issue : pr;
      const id = await comment(h, "alice", number, "/loopx help");
      const reply = await replyTo(h, number, id);
      expect(reply?.body).toContain("Here is what LoopX understands.");
      expect(reply?.body).toContain("/loopx start [objective]");
      expect(await reactions(h, id)).toEqual(["+1", "eyes"]);
      await noGoals();
    });

    it(`a reader's help on ${where}: answered from the outsiders' allowance, no reaction`, async () => {
      const number = where === "an issue" ? issue : pr;
      const id = await comment(h, "rita", number, "/loopx help");
      const reply = await replyTo(h, number, id);
      expect(reply?.body).toContain("/loopx help");
      expect(reply?.body).toContain("/loopx start [objective]");
      expect(await reactions(h, id)).toEqual([]);
      await noGoals();
    });
  }

  it("a bot's help gets silence; another command where there is no goal changes nothing", async () => {
    const bot = h.sandbox.createUser("helper-bot[bot]", { type: "Bot" });
    h.sandbox.repoByFullName("acme/widgets").collaborators.set(bot.id, "write");
    const botId = await comment(h, "helper-bot[bot]", issue, "/loopx help");
    expect(await replyTo(h, issue, botId)).toBeNull();
    const statusId = await comment(h, "alice", issue, "/loopx status");
    expect(await replyTo(h, issue, statusId)).toBeNull();
    expect(await reactions(h, statusId)).toEqual([]);
    await noGoals();
  });
});
