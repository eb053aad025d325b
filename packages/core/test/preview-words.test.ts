import { describe, expect, it } from "vitest";
import { approveGate, openGate, pauseGoal, previewWords, requestReplan } from "../src/index.ts";
import { APP, at, ctx, expectOk, minutes, OWNER, state, T0 } from "./fixtures.ts";

describe("previewWords: a command's dry run in words", () => {
  it("names the receipt an approval would leave, in the receipts' own words", () => {
    const opened = expectOk(
      openGate(state(), { question: "Deploy?", scopes: ["deploy"] }, ctx(T0, APP)),
    );
    const text = previewWords(
      approveGate(opened.state, { gate: "G1" }, ctx(at(minutes(3)), OWNER)),
    );
    expect(text.split("\n")[0]).toBe(
      "Dry run, nothing changed. Without `--dry-run`, this command would:",
    );
    expect(text).toContain(
      "- leave the receipt “octo-owner approved G1 (deploy) at 2026-01-05 12:03 UTC”",
    );
  });

  it("says what would change, once each, and why a refused command would be refused", () => {
    expect(previewWords(requestReplan(state(), { reason: "asked" }, ctx(T0, OWNER)))).toContain(
      "- have the next slice revise the todos",
    );
    const paused = expectOk(pauseGoal(state(), {}, ctx(T0, OWNER))).state;
    expect(previewWords(pauseGoal(paused, {}, ctx(T0, OWNER)))).toMatch(
      /^Dry run, nothing changed: this command would be refused\. .+/,
    );
  });
});
