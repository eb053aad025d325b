import { AWAITING_PULL_REQUEST } from "@loopx/core";
import { describe, expect, it } from "vitest";
import {
  BLOCK_BEGIN,
  BLOCK_END,
  diffChecklist,
  GITHUB_BODY_LIMIT,
  parseChecklist,
  renderManagedBlock,
  renderStatusComment,
  spliceManagedBlock,
} from "../src/index.ts";
import { decision, gate, goalState, NOW, todo } from "./fixtures.ts";

const STATUS_URL = "https://github.com/acme/widgets/issues/42#issuecomment-1";
const block = renderManagedBlock(goalState(), { statusCommentUrl: STATUS_URL });
const AUTHOR = "Please make it fast.\n\nIt takes 80 ms now.";

function tick(body: string, key: string): string {
  return body.replace(new RegExp(`- \\[ \\] (${key} .*<!-- loopx:todo=${key} -->)`), "- [x] $1");
}

describe("renderManagedBlock", () => {
  it("renders the checklist between the markers, one marker per live todo", () => {
    expect(block).toBe(
      [
        BLOCK_BEGIN,
        `**LoopX checklist** · [status, gates and budget](${STATUS_URL})`,
        "",
        "- [x] T1 Profile the hot path <!-- loopx:todo=T1 -->",
        "- [ ] T2 Cache the parser (#77) <!-- loopx:todo=T2 -->",
        "- ~~T3 Rewrite in Rust~~ (dropped)",
        BLOCK_END,
      ].join("\n"),
    );
  });

  it("says why a todo finished on its branch is still unticked", () => {
    const waiting = goalState({
      todos: [todo("T1", "Fix the parser", "blocked", 1, { blockedReason: AWAITING_PULL_REQUEST })],
    });
    const out = renderManagedBlock(waiting, { statusCommentUrl: null });
    expect(out).toContain(
      "- [ ] T1 Fix the parser (waiting for its pull request to merge) <!-- loopx:todo=T1 -->",
    );
    expect(parseChecklist(out)).toEqual([{ todo: "T1", checked: false }]);
  });

  it("shows a held plan's todos as proposed, with the gate that lets them run", () => {
    const held = { origin: "agent" };
    const state = goalState({
      todos: [
        todo("T2", "List the gears", "proposed", 1, held),
        todo("T3", "Ship", "ready", 2, held),
      ],
      gates: [gate({ key: "G4", todo: null, scopes: ["plan:T2"], question: "Accept the plan?" })],
    });
    const lines = renderManagedBlock(state, { statusCommentUrl: null }).split("\n");
    expect(lines.find((l) => l.includes("T2"))).toContain(
      "(proposed by an agent, not run until a writer approves the plan with `/loopx approve G4`)",
    );
    expect(lines.find((l) => l.includes("T3"))).toContain("`/loopx todo accept T3` makes it yours");
    const status = renderStatusComment(state, decision(), {
      now: NOW,
      serverUrl: "https://github.com",
    });
    expect(status).toContain("**Proposed, not run until a writer approves the plan (G4):** T2");
  });

  it("orders by position, then by key number", () => {
    const state = goalState({
      todos: goalState().todos.map((t) => ({ ...t, position: 0 })),
    });
    const out = renderManagedBlock(state, { statusCommentUrl: null });
    expect(out.indexOf("T1 ")).toBeLessThan(out.indexOf("T2 "));
    expect(out).toContain("status comment coming");
  });

  it("neutralises todo titles: no pings, no forged markers, no commands", () => {
    const state = goalState();
    const hostile = goalState({
      todos: [
        {
          ...state.todos[1]!,
          title: "ask @claude <!-- loopx:todo=T9 --> /loopx approve G1",
        },
      ],
    });
    const out = renderManagedBlock(hostile, { statusCommentUrl: null });
    expect(out).not.toMatch(/@[a-z]/);
    expect(out).not.toMatch(/\/loopx/);
    expect(parseChecklist(out)).toEqual([{ todo: "T2", checked: false }]);
  });

  it("says so when there are no todos", () => {
    const out = renderManagedBlock(goalState({ todos: [] }), { statusCommentUrl: null });
    expect(out).toBe(
      `${BLOCK_BEGIN}\n**LoopX checklist** · status comment coming\n\n_No todos yet._\n${BLOCK_END}`,
    );
  });

  it("stays bounded with hundreds of long todos, keeping both markers", () => {
    const many = Array.from({ length: 400 }, (_, i) =>
      todo(`T${i + 1}`, "x".repeat(256), "ready", i),
    );
    const out = renderManagedBlock(goalState({ todos: many }), { statusCommentUrl: STATUS_URL });
    expect(out.length).toBeLessThanOrEqual(32_768);
    expect(out.startsWith(`${BLOCK_BEGIN}\n`)).toBe(true);
    expect(out.endsWith(`\n${BLOCK_END}`)).toBe(true);
    // The next 50 open todos are listed whole, so they read back; the rest are counted.
    expect(out).toContain("…and 350 more todos (finished earlier, or later in the plan)");
    const items = parseChecklist(out);
    expect(items).toHaveLength(50);
    expect(items[0]).toEqual({ todo: "T1", checked: false });
    expect(items[49]).toEqual({ todo: "T50", checked: false });
  });

  it("at 20,000 todos lists the one being worked, the next 50 open and the recently done", () => {
    const DASHBOARD = "https://loopx.example/loopx/goals/g1";
    const done = (i: number) =>
      todo(`T${i}`, `Finished step ${i} of the long migration`, "done", i, {
        completion: {
          continuation: { kind: "goal_active" },
          evidenceIds: ["00000000-0000-4000-8000-000000000001"],
          tickId: null,
          at: new Date(NOW.getTime() - (20_000 - i) * 1000),
        },
      });
    const claim = {
      tickId: "00000000-0000-4000-8000-000000000002",
      agent: "a",
      leaseExpiresAt: NOW,
    };
    const todos = Array.from({ length: 20_000 }, (_, n) => {
      const i = n + 1;
      if (i <= 15_000) return done(i);
      // The worked todo sits far down the plan order, behind thousands of open ones.
      if (i === 19_990) return todo(`T${i}`, "The one being worked", "ready", i, { claim });
      return todo(`T${i}`, `Open step ${i} of the long migration`, "ready", i);
    });
    const state = goalState({ todos });
    const counted = {
      ...state,
      goal: { ...state.goal, counters: { ...state.goal.counters, todo: 20_001 } },
    };
    const out = renderManagedBlock(counted, {
      statusCommentUrl: STATUS_URL,
      dashboardUrl: DASHBOARD,
    });
    expect(out.length).toBeLessThan(60_000);
    expect(out).toContain("T19990 The one being worked");
    expect(out).not.toContain("… truncated");
    const shown = parseChecklist(out).map((i) => i.todo);
    // Worked, then the next 50 open by position (T15001…T15050), then the 10 newest done.
    expect(shown).toHaveLength(61);
    expect(shown).toContain("T19990");
    expect(shown).toContain("T15001");
    expect(shown).toContain("T15050");
    expect(shown).not.toContain("T15051");
    expect(shown).toContain("T15000");
    expect(shown).toContain("T14991");
    expect(shown).not.toContain("T14990");
    expect(out).toContain(
      `…and 19939 more todos (finished earlier, or later in the plan): [every todo on the dashboard](${DASHBOARD})`,
    );
    // A person ticks a listed box: read as a tick. Todos not listed are not read at all.
    const edited = tick(out, "T15002");
    expect(diffChecklist(out, edited)).toEqual({ ticked: ["T15002"], unticked: [] });
    const full = renderManagedBlock(goalState({ todos: todos.slice(0, 3) }), {
      statusCommentUrl: STATUS_URL,
    });
    expect(diffChecklist(full, out)).toEqual({ ticked: [], unticked: [] });
  });
});

describe("spliceManagedBlock", () => {
  it("appends the block after the author's text when absent", () => {
    expect(spliceManagedBlock(AUTHOR, block)).toBe(`${AUTHOR}\n\n${block}`);
    expect(spliceManagedBlock("", block)).toBe(block);
    expect(spliceManagedBlock("text\n\n\n", block)).toBe(`text\n\n${block}`);
  });

  it("replaces an existing block, keeping text before and after it", () => {
    const old = `${AUTHOR}\n\n${BLOCK_BEGIN}\nold stuff\n${BLOCK_END}\nPS: a note below\n`;
    expect(spliceManagedBlock(old, block)).toBe(`${AUTHOR}\n\n${block}\nPS: a note below\n`);
  });

  it("is idempotent", () => {
    const once = spliceManagedBlock(AUTHOR, block);
    expect(spliceManagedBlock(once, block)).toBe(once);
  });

  it("treats a damaged block (no end marker) as ours up to the end of the body", () => {
    const damaged = `${AUTHOR}\n\n${BLOCK_BEGIN}\n- [ ] T1 half <!-- loopx:todo=T1 -->\nrest of it`;
    const out = spliceManagedBlock(damaged, block);
    expect(out).toBe(`${AUTHOR}\n\n${block}`);
    expect(out.match(/loopx:begin/g)).toHaveLength(1);
  });

  it("collapses duplicate blocks into one", () => {
    const twice = `${AUTHOR}\n${BLOCK_BEGIN}\na\n${BLOCK_END}\nmiddle\n${BLOCK_BEGIN}\nb\n${BLOCK_END}\nend`;
    const out = spliceManagedBlock(twice, block);
    expect(out).toBe(`${AUTHOR}\n${block}\nmiddle\nend`);
  });

  it("keeps CRLF line endings of a body edited in a browser", () => {
    const crlf = `Line one\r\nLine two\r\n\r\n${BLOCK_BEGIN}\r\nold\r\n${BLOCK_END}\r\nafter`;
    const out = spliceManagedBlock(crlf, block);
    expect(out).toBe(`Line one\r\nLine two\r\n\r\n${block.replace(/\n/g, "\r\n")}\r\nafter`);
    expect(parseChecklist(out)).toHaveLength(2);
  });

  it("ignores a begin marker inside the author's fenced code", () => {
    const doc = `How to use:\n\n\`\`\`\n${BLOCK_BEGIN}\n\`\`\`\n`;
    const out = spliceManagedBlock(doc, block);
    expect(out.startsWith(doc.trimEnd())).toBe(true);
    expect(out.endsWith(block)).toBe(true);
  });

  it("keeps the result within 65,536 characters, cutting the checklist before the author's text", () => {
    const author = "a".repeat(50_000);
    const many = Array.from({ length: 400 }, (_, i) =>
      todo(`T${i + 1}`, "x".repeat(200), "ready", i),
    );
    const big = renderManagedBlock(goalState({ todos: many }), { statusCommentUrl: STATUS_URL });
    const out = spliceManagedBlock(author, big);
    expect(out.length).toBeLessThanOrEqual(GITHUB_BODY_LIMIT);
    expect(out.startsWith(`${author}\n\n${BLOCK_BEGIN}`)).toBe(true);
    expect(out.endsWith(BLOCK_END)).toBe(true);
  });

  it("still fits when the author's text alone fills the limit", () => {
    const author = "line\n".repeat(13_107); // 65,535 characters
    const out = spliceManagedBlock(author, block);
    expect(out.length).toBeLessThanOrEqual(GITHUB_BODY_LIMIT);
    expect(out.endsWith(block)).toBe(true);
    expect(parseChecklist(out)).toHaveLength(2);
  });
});

describe("parseChecklist", () => {
  const body = spliceManagedBlock(AUTHOR, block);

  it("reads each marked item's box", () => {
    expect(parseChecklist(body)).toEqual([
      { todo: "T1", checked: true },
      { todo: "T2", checked: false },
    ]);
  });

  it("ignores a forged marker outside the block", () => {
    const forged = `- [x] T9 sneaky <!-- loopx:todo=T9 -->\n${body}\n- [x] T8 after <!-- loopx:todo=T8 -->`;
    expect(parseChecklist(forged).map((i) => i.todo)).toEqual(["T1", "T2"]);
  });

  it.each([
    ["a marker on a line without a checkbox", "T5 text <!-- loopx:todo=T5 -->"],
    ["two markers on one line", "- [x] T5 <!-- loopx:todo=T5 --> <!-- loopx:todo=T6 -->"],
    ["a malformed key", "- [x] T0 <!-- loopx:todo=T0 -->"],
    ["a non-key", "- [x] x <!-- loopx:todo=G1 -->"],
    ["a checkbox without a marker", "- [x] T5 plain"],
    ["an indented code line", "    - [x] T5 <!-- loopx:todo=T5 -->"],
  ])("ignores %s inside the block", (_name, line) => {
    const withLine = body.replace(BLOCK_END, `${line}\n${BLOCK_END}`);
    expect(parseChecklist(withLine)).toEqual([
      { todo: "T1", checked: true },
      { todo: "T2", checked: false },
    ]);
  });

  it("ignores items in fenced code inside the block", () => {
    const fenced = body.replace(
      BLOCK_END,
      `\`\`\`\n- [x] T5 <!-- loopx:todo=T5 -->\n\`\`\`\n${BLOCK_END}`,
    );
    expect(parseChecklist(fenced).map((i) => i.todo)).toEqual(["T1", "T2"]);
  });

  it("counts a duplicated item once, by its first occurrence", () => {
    const dup = body.replace(BLOCK_END, `- [x] T2 copy <!-- loopx:todo=T2 -->\n${BLOCK_END}`);
    expect(parseChecklist(dup)).toContainEqual({ todo: "T2", checked: false });
    expect(parseChecklist(dup)).toHaveLength(2);
  });

  it("accepts an upper-case X and other bullets, as GitHub keeps them", () => {
    const edited = body.replace("- [ ] T2", "* [X] T2");
    expect(parseChecklist(edited)).toContainEqual({ todo: "T2", checked: true });
  });

  it("reads only the first block and reads a damaged one to the end", () => {
    const damaged = `${AUTHOR}\n${BLOCK_BEGIN}\n- [x] T4 a <!-- loopx:todo=T4 -->`;
    expect(parseChecklist(damaged)).toEqual([{ todo: "T4", checked: true }]);
    expect(parseChecklist(AUTHOR)).toEqual([]);
  });
});

describe("diffChecklist", () => {
  const before = spliceManagedBlock(AUTHOR, block);

  it("a ticked box yields that todo ticked", () => {
    expect(diffChecklist(before, tick(before, "T2"))).toEqual({ ticked: ["T2"], unticked: [] });
  });

  it("an unticked box yields that todo unticked", () => {
    const after = before.replace("- [x] T1", "- [ ] T1");
    expect(diffChecklist(before, after)).toEqual({ ticked: [], unticked: ["T1"] });
  });

  it("edits to the author's text or a re-render are no ticks", () => {
    expect(diffChecklist(before, `New intro.\n${before}`)).toEqual({ ticked: [], unticked: [] });
    expect(diffChecklist(before, before)).toEqual({ ticked: [], unticked: [] });
  });

  it("a line added or removed is not a tick, nor is a forged box outside the block", () => {
    const added = before.replace(BLOCK_END, `- [x] T9 new <!-- loopx:todo=T9 -->\n${BLOCK_END}`);
    expect(diffChecklist(before, added)).toEqual({ ticked: [], unticked: [] });
    const removed = before.replace(/- \[ \] T2.*\n/, "");
    expect(diffChecklist(before, removed)).toEqual({ ticked: [], unticked: [] });
    const outside = `${tick(before, "T2").replace(BLOCK_BEGIN, "x").replace(BLOCK_END, "y")}`;
    expect(diffChecklist(before, outside)).toEqual({ ticked: [], unticked: [] });
  });

  it("accepts parsed checklists too", () => {
    expect(
      diffChecklist([{ todo: "T1", checked: false }], [{ todo: "T1", checked: true }]),
    ).toEqual({ ticked: ["T1"], unticked: [] });
  });
});
