import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  BLOCK_BEGIN,
  BLOCK_END,
  diffChecklist,
  findManagedBlocks,
  GITHUB_BODY_LIMIT,
  parseChecklist,
  renderManagedBlock,
  spliceManagedBlock,
  todoMarker,
} from "../../packages/github/src/index.ts";
import { goalState } from "../../packages/github/test/fixtures.ts";

/**
 * Fuzzed issue bodies through the checklist intake (parseChecklist, diffChecklist) and the
 * projection (spliceManagedBlock): any body a person or bot writes is read without a crash,
 * never yields a todo twice, and LoopX's write stays within GitHub's 65,536 characters.
 */
const block = renderManagedBlock(goalState(), {
  statusCommentUrl: "https://github.com/acme/widgets/issues/42#issuecomment-1",
});
const fragment = fc.oneof(
  fc.constantFrom(BLOCK_BEGIN, BLOCK_END, "```", "~~~", "- [ ] ", "- [x] ", "* [X] ", "\r\n", "\n"),
  fc.integer({ min: 0, max: 12 }).map((n) => todoMarker(`T${n}`)),
  fc.constantFrom("<!-- loopx:todo=T1 -->", "<!--loopx:todo=T01-->", "<!-- LOOPX:BEGIN -->"),
  fc.string({ maxLength: 30 }),
);
const body = fc.array(fragment, { maxLength: 40 }).map((parts) => parts.join(""));

describe("hostile: fuzzed checklists and issue bodies", () => {
  it("parseChecklist never throws and never reports a todo twice", () => {
    fc.assert(
      fc.property(body, (b) => {
        const items = parseChecklist(b);
        const keys = items.map((i) => i.todo);
        expect(new Set(keys).size).toBe(keys.length);
      }),
      { numRuns: 2000 },
    );
  });

  it("a body compared with itself ticks nothing; any two bodies diff without a crash", () => {
    fc.assert(
      fc.property(body, body, (a, b) => {
        expect(diffChecklist(a, a)).toEqual({ ticked: [], unticked: [] });
        const d = diffChecklist(a, b);
        expect(d.ticked.filter((k) => d.unticked.includes(k))).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });

  it("splicing our block into any body converges on one block within the body limit", () => {
    const big = fc.oneof(
      body,
      fc.integer({ min: 60_000, max: 120_000 }).map((n) => `${"a".repeat(n)}\n`),
      fc.integer({ min: 60_000, max: 70_000 }).map((n) => "🦀".repeat(n / 2)),
    );
    fc.assert(
      fc.property(big, (b) => {
        const once = spliceManagedBlock(b, block);
        expect(once.length).toBeLessThanOrEqual(GITHUB_BODY_LIMIT);
        expect(findManagedBlocks(once)).toHaveLength(1);
        // Whatever the body forged, the checklist read back is exactly the one we rendered.
        expect(parseChecklist(once)).toEqual(parseChecklist(block));
        // A second write of the same block changes nothing: no churn of issue edits.
        expect(spliceManagedBlock(once, block)).toBe(once);
      }),
      { numRuns: 300 },
    );
  });

  it("an author's unclosed code fence is closed before our block, so the block is found again", () => {
    const body = "Repro:\n```sh\nnpm test";
    const once = spliceManagedBlock(body, block);
    expect(once.startsWith(`${body}\n\`\`\`\n\n${BLOCK_BEGIN}`)).toBe(true);
    expect(parseChecklist(once)).toEqual(parseChecklist(block));
    expect(spliceManagedBlock(once, block)).toBe(once);
  });
});
