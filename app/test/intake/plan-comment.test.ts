import { pauseGoal, requestStatus, wakeGoal } from "@loopx/core";
import { HELP_TEXT, parseCommand } from "@loopx/github";
import { describe, expect, it } from "vitest";
import { ctx, expectOk, state, WRITER } from "../../../packages/core/test/fixtures.ts";
import type { CommentFacts } from "../../src/comments/plan-comment.ts";
import { planComment } from "../../src/comments/plan-comment.ts";

const ISSUE = { owner: "acme", repo: "widgets", number: 42 };

function facts(body: string, over: Partial<CommentFacts> = {}): CommentFacts {
  const trusted = over.trusted ?? true;
  const parsed = parseCommand(body);
  const command =
    trusted && parsed?.kind === "command" && parsed.command.name !== "help"
      ? {
          kind: "apply" as const,
          transition: parsed.command.name === "run" ? wakeGoal : requestStatus,
        }
      : null;
  return {
    issue: ISSUE,
    repo: { id: 10, fullName: "acme/widgets" },
    commentId: 900,
    body,
    author: { login: trusted ? "writer" : "stranger", type: "User" },
    onPullRequest: false,
    goal: state(),
    alreadyApplied: false,
    trusted,
    parsed,
    command,
    ...over,
  };
}

const kinds = (effects: { kind: string; content?: string; lane?: string }[]) =>
  effects.map((e) => (e.kind === "react" ? `react:${e.content}` : `${e.kind}:${e.lane}`));

describe("planComment: who is obeyed, who is answered", () => {
  it("a bot's command is neither obeyed nor answered, whatever its permission", () => {
    for (const author of [
      { login: "loopx[bot]", type: "Bot" },
      { login: "renovate[bot]", type: "User" },
      { login: "ci-helper", type: "Bot" },
    ]) {
      const plan = planComment(facts("/loopx stop", { author, trusted: true }));
      expect(plan).toEqual({
        kind: "ignore",
        why: `comment by ${author.login}: bots carry no authority`,
        effects: [],
      });
    }
  });

  it("a comment on a pull request, on an issue with no goal, or applied once is left alone", () => {
    expect(planComment(facts("/loopx stop", { onPullRequest: true })).kind).toBe("ignore");
    const noGoal = planComment(facts("/loopx stop", { goal: null, trusted: false }));
    expect(noGoal).toMatchObject({ kind: "ignore", effects: [] });
    const again = planComment(facts("/loopx stop", { alreadyApplied: true }));
    expect(again).toMatchObject({ kind: "ignore", effects: [] });
  });

  it("an outsider's command changes nothing: one reply from the outsiders' allowance, no reaction", () => {
    const plan = planComment(facts("/loopx stop", { trusted: false }));
    expect(plan.kind).toBe("ignore");
    expect(kinds(plan.effects)).toEqual(["reply:outsider"]);
    const [answer] = plan.effects;
    expect(answer).toMatchObject({
      key: "reply:comment:900",
      issue: ISSUE,
      to: { repoId: 10, login: "stranger" },
    });
    expect(answer?.kind === "reply" && answer.body).toContain("need write access to acme/widgets");
  });

  it("an outsider asking for help, or mistyping, gets the help or the parse error, still no reaction", () => {
    const help = planComment(facts("/loopx help", { trusted: false }));
    expect(kinds(help.effects)).toEqual(["reply:outsider"]);
    expect(help.effects[0]?.kind === "reply" && help.effects[0].body).toContain(HELP_TEXT);
    const typo = planComment(facts("/loopx budget usd=lots", { trusted: false }));
    expect(kinds(typo.effects)).toEqual(["reply:outsider"]);
    expect(typo.effects[0]?.kind === "reply" && typo.effects[0].body).toContain("usd");
  });

  it("a writer's command is seen (eyes) and, once applied, acknowledged (+1); no reply", () => {
    const plan = planComment(facts("/loopx status"));
    if (plan.kind !== "apply") throw new Error(`expected a transition, got ${plan.kind}`);
    expect(kinds(plan.effects)).toEqual(["react:eyes"]);
    expect(kinds(plan.applied ?? [])).toEqual(["react:+1"]);
    expect(plan.actor).toEqual({ kind: "human", login: "writer", trusted: true });
    // The comment id rides on the events: the once-per-comment check finds it.
    const r = expectOk(plan.transition(state(), ctx(undefined, WRITER)));
    expect(r.events.length).toBeGreaterThan(0);
    expect(r.events.every((e) => e.data.commentId === "900")).toBe(true);
  });

  it("a writer's command the kernel refuses gets eyes and a reply quoting it with the kernel's reason", () => {
    const paused = expectOk(pauseGoal(state(), { reason: "held" }, ctx(undefined, WRITER))).state;
    const plan = planComment(facts("/loopx run"));
    if (plan.kind !== "apply") throw new Error(`expected a transition, got ${plan.kind}`);
    const r = plan.transition(paused, ctx(undefined, WRITER));
    if (r.ok) throw new Error("waking a paused goal should be refused");
    const answer = plan.refused?.(r.refusal) ?? [];
    expect(kinds(answer)).toEqual(["reply:loopx"]);
    const body = answer[0]?.kind === "reply" ? answer[0].body : "";
    expect(body.startsWith("> ")).toBe(true);
    expect(body).toContain("loopx run");
    expect(body).toContain(r.refusal.message);
  });

  it("a writer's malformed command gets eyes and the parse error, never +1", () => {
    const plan = planComment(facts("/loopx frobnicate"));
    expect(plan.kind).toBe("ignore");
    expect(kinds(plan.effects)).toEqual(["react:eyes", "reply:loopx"]);
  });

  it("a writer's help gets eyes, the help text and +1", () => {
    const plan = planComment(facts("/loopx help"));
    expect(kinds(plan.effects)).toEqual(["react:eyes", "reply:loopx", "react:+1"]);
  });

  it("a command refused before the kernel (e.g. an invalid config) gets eyes and the reason", () => {
    const plan = planComment(
      facts("/loopx resume", { command: { kind: "refuse", message: "fix the config first" } }),
    );
    expect(kinds(plan.effects)).toEqual(["react:eyes", "reply:loopx"]);
    expect(plan.effects[1]?.kind === "reply" && plan.effects[1].body).toContain("fix the config");
  });

  it("a plain comment is a note for everyone (no reaction, no reply); an empty one is nothing", () => {
    for (const trusted of [true, false]) {
      const plan = planComment(facts("please look at the flaky test", { trusted }));
      if (plan.kind !== "apply") throw new Error("a note is a transition");
      expect(plan.effects).toEqual([]);
      expect(plan.applied ?? []).toEqual([]);
      const r = expectOk(plan.transition(state(), ctx(undefined, plan.actor)));
      expect(r.events.map((e) => e.type)).toEqual(["note.queued"]);
      expect(plan.actor).toMatchObject({ kind: "human", trusted });
    }
    expect(planComment(facts("   \n  "))).toMatchObject({ kind: "ignore", effects: [] });
  });

  it("what a person typed is neutralised in the reply: no mention, no closing markup", () => {
    const plan = planComment(facts("/loopx frobnicate @everyone", { trusted: false }));
    const body = plan.effects[0]?.kind === "reply" ? plan.effects[0].body : "";
    expect(body).not.toMatch(/(^|[^`])@everyone/);
  });
});

describe("planComment: --dry-run", () => {
  const dryRun = { now: new Date("2026-01-05T12:00:00.000Z"), newId: () => "id-1" };

  it("a writer's dry run changes nothing and answers with what the command would do", () => {
    const plan = planComment(
      facts("/loopx run --dry-run", {
        command: { kind: "apply", transition: wakeGoal },
        dryRun,
      }),
    );
    expect(plan.kind).toBe("ignore");
    expect(kinds(plan.effects)).toEqual(["react:eyes", "reply:loopx"]);
    const reply = plan.effects[1];
    const body = reply?.kind === "reply" ? reply.body : "";
    expect(body).toContain("Dry run, nothing changed.");
    expect(body).toContain("- wake the loop now");
    expect(body).toContain("- start a tick now");
  });

  it("a dry run the kernel would refuse says why, and still changes nothing", () => {
    const paused = expectOk(pauseGoal(state(), {}, ctx(undefined, WRITER))).state;
    const plan = planComment(
      facts("/loopx pause --dry-run", {
        goal: paused,
        command: { kind: "apply", transition: (s, c) => pauseGoal(s, {}, c) },
        dryRun,
      }),
    );
    expect(plan.kind).toBe("ignore");
    const reply = plan.effects.find((e) => e.kind === "reply");
    expect(reply?.kind === "reply" && reply.body).toContain("would be refused");
  });

  it("an outsider's dry run is answered as any outsider's command: no preview", () => {
    const plan = planComment(facts("/loopx run --dry-run", { trusted: false, dryRun }));
    const reply = plan.effects.find((e) => e.kind === "reply");
    expect(reply?.kind === "reply" && reply.body).toContain("need write access");
    expect(reply?.kind === "reply" && reply.body).not.toContain("Dry run");
  });

  it("a dry run is never applied, even without what it needs to be tried", () => {
    const plan = planComment(
      facts("/loopx run --dry-run", { command: { kind: "apply", transition: wakeGoal } }),
    );
    expect(plan.kind).toBe("ignore");
  });
});
