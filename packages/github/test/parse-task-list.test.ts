import { describe, expect, it } from "vitest";
import { parseTaskList, renderManagedBlock, TASK_LIST_MAX } from "../src/index.ts";
import { goalState } from "./fixtures.ts";

describe("parseTaskList: the author's own task list", () => {
  it("reads open and ticked items in order, any bullet, nested ones too", () => {
    const body = [
      "Ship the catalogue.",
      "",
      "- [ ] List the gears",
      "* [x] Pick a format",
      "+ [ ] Describe each gear   ",
      "  - [X] Photograph them",
      "- not a task",
      "- [ ]",
      "1. [ ] ordered lists are no task list here",
    ].join("\n");
    expect(parseTaskList(body)).toEqual([
      { title: "List the gears", checked: false },
      { title: "Pick a format", checked: true },
      { title: "Describe each gear", checked: false },
      { title: "Photograph them", checked: true },
    ]);
  });

  it("skips LoopX's own checklist, lines with its todo markers, and fenced code", () => {
    const block = renderManagedBlock(goalState(), { statusCommentUrl: null });
    expect(block).toContain("loopx:todo=");
    const body = [
      "- [ ] Mine",
      block,
      "- [ ] T9 pasted <!-- loopx:todo=T9 -->",
      "```md",
      "- [ ] an example in code",
      "```",
      "~~~~",
      "- [ ] also code",
      "~~~~",
      "- [ ] Mine too",
    ].join("\r\n");
    expect(parseTaskList(body).map((i) => i.title)).toEqual(["Mine", "Mine too"]);
  });

  it("keeps a long item's start within the kernel's title limit and stops at the cap", () => {
    const long = parseTaskList(`- [ ] ${"a".repeat(300)}`)[0]?.title ?? "";
    expect(long).toHaveLength(256);
    expect(long.endsWith("…")).toBe(true);
    const many = Array.from({ length: TASK_LIST_MAX + 5 }, (_, i) => `- [ ] item ${i}`).join("\n");
    expect(parseTaskList(many)).toHaveLength(TASK_LIST_MAX);
    expect(parseTaskList("")).toEqual([]);
  });
});
