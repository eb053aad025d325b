/**
 * The fixed agent edits the way a person does: its change goes into a file that holds
 * another goal's work without undoing it, while its own leftovers (a half-written file, a
 * botched first line, CI-fix comments) are its to overwrite.
 */
import { describe, expect, it } from "vitest";
import { editedContent } from "../../bench/loop/agent/edit-file.ts";
import { FLAKY_PREFIX } from "../../bench/loop/agent/run-agent.ts";

const FROM = [
  "export function slug(s) {",
  "  return s;",
  "}",
  "",
  "export function wrap(s) {",
  "  return s;",
  "}",
  "",
].join("\n");
// Its own change: slug lowercases.
const TO = FROM.replace(
  "  return s;\n}\n\nexport function wrap",
  "  return s.toLowerCase();\n}\n\nexport function wrap",
);
// Another goal's change, already on main: wrap trims.
const THEIRS = FROM.replace(/(wrap\(s\) \{\n) {2}return s;/, "$1  return s.trim();");
const OWN = new Set([FROM, TO]);

describe("the agent's edits", () => {
  it("keeps another goal's change in the file it changes", () => {
    const merged = editedContent(THEIRS, FROM, TO, OWN);
    expect(merged).toContain("return s.toLowerCase();");
    expect(merged).toContain("return s.trim();");
  });

  it("writes its content over its own states and leftovers", () => {
    expect(editedContent(null, FROM, TO, OWN)).toBe(TO);
    expect(editedContent(FROM, FROM, TO, OWN)).toBe(TO);
    expect(editedContent(TO.slice(0, 20), FROM, TO, OWN)).toBe(TO);
    expect(editedContent(`${FLAKY_PREFIX}${TO}`, FROM, TO, OWN)).toBe(TO);
    expect(editedContent(`${TO}// fix: ci attempt 1\n`, FROM, TO, OWN)).toBe(TO);
  });

  it("takes its own version where the two changes overlap", () => {
    const clash = FROM.replace(
      "  return s;\n}\n\nexport function wrap",
      "  return s.toUpperCase();\n}\n\nexport function wrap",
    );
    expect(editedContent(clash, FROM, TO, OWN)).toBe(TO);
  });
});
