/**
 * The bench's metering proxy holds a slice to its USD ceiling as the shipped one does: under a
 * tick cap the reply in flight still counts, on the last of a budget no reply starts that could
 * cross it; a stopped slice keeps only the writes its spend paid for, never its notes, and says
 * nothing of what it did.
 */
import { describe, expect, it } from "vitest";
import type { AgentOutcome, SliceAgent, SliceInput } from "../../bench/loop/agent/agent-types.ts";
import { memoryTree } from "../../bench/loop/agent/memory-tree.ts";
import { blank } from "../../bench/loop/agent/run-agent.ts";
import {
  meteredSlice,
  meteredTokens,
  modelUsd,
  REPLY_TOKENS,
} from "../../bench/loop/arms/metered-slice.ts";

const FILES = ["src/a.ts", "src/b.ts", "src/c.ts", "src/d.ts"];
const TOKENS = 400_000;

/** Writes four files in order, removes one, appends its notes, and claims the todo done. */
const agent: SliceAgent = ({ tree }) => {
  for (const path of FILES) tree.write(path, `// ${path}\n`);
  tree.remove("old.ts");
  tree.write("NOTES.md", "done with T1\n");
  const outcome: AgentOutcome = {
    ...blank(),
    todo: "T1",
    progressed: true,
    finishedTodo: true,
    wroteFiles: [...FILES, "old.ts"],
    proposedTodos: ["T2"],
    tokens: TOKENS,
    summary: "finished T1",
  };
  return outcome;
};

function input(): SliceInput & { tree: ReturnType<typeof memoryTree> } {
  return {
    prompt: "## Your todo: T1",
    tree: memoryTree([
      ["old.ts", "gone soon\n"],
      ["NOTES.md", ""],
    ]),
    tools: { issueComments: () => [], pull: () => null },
    skill: { plan: [], discoveries: [] },
    profile: "overspending",
  };
}

const soft = (usd: number) => ({ usd, hard: false });
const hard = (usd: number) => ({ usd, hard: true });

describe("the bench's metering proxy", () => {
  it("passes a slice under its ceiling through untouched, hard or not", async () => {
    for (const ceiling of [soft(modelUsd(TOKENS)), hard(modelUsd(TOKENS))]) {
      const slice = input();
      const { outcome, cutAtUsd } = await meteredSlice(agent, slice, ceiling);
      expect(cutAtUsd).toBeNull();
      expect(outcome).toMatchObject({ finishedTodo: true, tokens: TOKENS, proposedTodos: ["T2"] });
      expect(slice.tree.list()).toEqual(["NOTES.md", ...FILES]);
      expect(slice.tree.read("NOTES.md")).toBe("done with T1\n");
    }
  });

  it("stops a slice at its ceiling: the writes it paid for, no notes, no claims", async () => {
    const slice = input();
    // Half the slice's spend pays for half of its five writes, rounded down: two.
    const ceiling = hard(modelUsd(TOKENS / 2));
    const { outcome, cutAtUsd } = await meteredSlice(agent, slice, ceiling);
    expect(cutAtUsd).toBe(ceiling.usd);
    expect(outcome).toMatchObject({
      todo: "T1",
      tokens: TOKENS / 2,
      progressed: true,
      finishedTodo: false,
      proposedTodos: [],
      wroteFiles: FILES.slice(0, 2),
    });
    expect(slice.tree.list()).toEqual(["NOTES.md", "old.ts", ...FILES.slice(0, 2)]);
    expect(slice.tree.read("NOTES.md")).toBe("");
  });

  it("counts the reply in flight past a tick cap, and starts none that could cross a hard one", () => {
    // The ceiling falls half a reply short of the 20th reply's end.
    const usd = modelUsd(19 * REPLY_TOKENS + REPLY_TOKENS / 2);
    expect(meteredTokens(TOKENS, soft(usd))).toBe(20 * REPLY_TOKENS);
    expect(modelUsd(meteredTokens(TOKENS, soft(usd)))).toBeGreaterThan(usd);
    expect(meteredTokens(TOKENS, hard(usd))).toBe(19 * REPLY_TOKENS);
    expect(modelUsd(meteredTokens(TOKENS, hard(usd)))).toBeLessThanOrEqual(usd);
  });

  it("keeps nothing when the ceiling is spent before the first write, and refuses a bad ceiling", async () => {
    for (const ceiling of [soft(0), hard(0), hard(modelUsd(REPLY_TOKENS - 1))]) {
      const slice = input();
      const { outcome } = await meteredSlice(agent, slice, ceiling);
      expect(outcome).toMatchObject({ tokens: 0, progressed: false, wroteFiles: [] });
      expect(slice.tree.list()).toEqual(["NOTES.md", "old.ts"]);
    }
    await expect(meteredSlice(agent, input(), soft(Number.NaN))).rejects.toThrow(/non-negative/);
    await expect(meteredSlice(agent, input(), hard(-1))).rejects.toThrow(/non-negative/);
  });
});
