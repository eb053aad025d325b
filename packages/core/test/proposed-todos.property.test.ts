import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Todo } from "../src/index.ts";
import { newProposals, normalizeTitle } from "../src/index.ts";
import { todo } from "./fixtures.ts";

const title = fc.oneof(
  fc.constantFrom("List the gears", "list the gears.", "LIST  the gears", "Ship", "ship!", "Docs"),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 20 }),
);
const open = fc.array(
  fc.record({ title, status: fc.constantFrom("ready", "blocked", "done", "dropped") }),
  { maxLength: 8 },
);

function todos(rows: { title: string; status: Todo["status"] }[]): Todo[] {
  return rows.map((r, i) => todo(`T${i + 1}`, { title: r.title, status: r.status }));
}

describe("newProposals (property)", () => {
  it("adds no title an open todo has, none twice, and nothing on a second pass", () => {
    fc.assert(
      fc.property(open, fc.array(fc.record({ title }), { maxLength: 10 }), (rows, proposals) => {
        const existing = todos(rows);
        const fresh = newProposals(existing, proposals);
        const openKeys = new Set(
          existing
            .filter((t) => t.status !== "done" && t.status !== "dropped")
            .map((t) => normalizeTitle(t.title)),
        );
        const keys = fresh.map((p) => normalizeTitle(p.title));
        expect(keys.some((k) => openKeys.has(k))).toBe(false);
        expect(new Set(keys).size).toBe(keys.length);
        // Every proposal is either added or already open (or an earlier proposal's duplicate).
        for (const p of proposals) {
          const k = normalizeTitle(p.title);
          if (k !== "") expect(openKeys.has(k) || keys.includes(k)).toBe(true);
        }
        // Applying the same proposals again, after adding them, adds none: retries are free.
        const after = [
          ...existing,
          ...fresh.map((p, i) => todo(`T${existing.length + i + 1}`, { title: p.title })),
        ];
        expect(newProposals(after, proposals)).toEqual([]);
      }),
    );
  });

  it("normalizeTitle is idempotent", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 40 }), (s) => {
        expect(normalizeTitle(normalizeTitle(s))).toBe(normalizeTitle(s));
      }),
    );
  });
});
