import { describe, expect, it } from "vitest";
import { allowListed } from "../src/api/authorize-call.ts";
import { DEFAULT_TICK_WORKFLOW_REFS } from "../src/api/settings.ts";

const TICK = "loopx/loopx/.github/workflows/loopx-tick.yml";
const WAKE = "loopx/loopx/.github/workflows/loopx-wake.yml";
const SHA = "3f".repeat(20);

describe("job_workflow_ref allow-list", () => {
  it("accepts LoopX's shipped tick and wake workflows at a release tag or main", () => {
    for (const ref of [
      `${TICK}@refs/tags/v1`,
      `${TICK}@refs/heads/main`,
      `${WAKE}@refs/tags/v1.2.0`,
    ])
      expect(allowListed(ref, DEFAULT_TICK_WORKFLOW_REFS), ref).toBe(true);
    expect(allowListed(`${TICK}@refs/heads/feature`, DEFAULT_TICK_WORKFLOW_REFS)).toBe(false);
  });

  it("accepts a SHA only when listed exactly: no pattern stands for a SHA (a fork's resolves under the parent)", () => {
    expect(allowListed(`${TICK}@${SHA}`, DEFAULT_TICK_WORKFLOW_REFS)).toBe(false);
    expect(allowListed(`${TICK}@${SHA}`, [`${TICK}@*`])).toBe(false);
    expect(allowListed(`${TICK}@${SHA}`, [`${TICK}@${SHA}`])).toBe(true);
  });
});
