import { describe, expect, it } from "vitest";
import { parseTaskList, renderManagedBlock } from "../src/index.ts";
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

  it("keeps a long item's start within the kernel's title limit and drops no item", () => {
    const long = parseTaskList(`- [ ] ${"a".repeat(300)}`)[0]?.title ?? "";
    expect(long).toHaveLength(256);
    expect(long.endsWith("…")).toBe(true);
    const done = Array.from({ length: 250 }, (_, i) => `- [x] done ${i}`);
    const open = Array.from({ length: 205 }, (_, i) => `- [ ] item ${i}`);
    const items = parseTaskList([...done, ...open].join("\n"));
    expect(items).toHaveLength(455);
    expect(items.filter((i) => !i.checked).at(-1)?.title).toBe("item 204");
    expect(parseTaskList("")).toEqual([]);
  });

  it("reads the paths an item declares, and keeps a refused clause's text with why", () => {
    const body = [
      "- [ ] Write the docs paths: `docs/**`, `README.md`",
      "- [ ] Build the API paths: src/api/**",
      "- [x] Fix the paths: parser",
      "- [ ] Read the host paths: /etc/hosts",
      "- [ ] Plain work",
    ].join("\n");
    const [docs, api, done, host, plain] = parseTaskList(body);
    expect(docs).toEqual({
      title: "Write the docs",
      checked: false,
      paths: ["docs/**", "README.md"],
    });
    expect(api).toEqual({ title: "Build the API", checked: false, paths: ["src/api/**"] });
    expect(done).toEqual({ title: "Fix the", checked: true, paths: ["parser"] });
    expect(host?.title).toBe("Read the host paths: /etc/hosts");
    expect(host?.paths).toBeUndefined();
    expect(host?.pathsProblem).toMatch(/"\/etc\/hosts" is not a path in this repository/);
    expect(plain).toEqual({ title: "Plain work", checked: false });
  });
});
