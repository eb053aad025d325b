import { describe, expect, it } from "vitest";
import { dispatchTick } from "../src/scheduler/dispatch-tick.ts";

function recorder() {
  const sent: Record<string, string>[] = [];
  const port = {
    dispatchWorkflow: async (
      _repo: { owner: string; repo: string },
      _file: string,
      _ref: string,
      inputs: Record<string, string>,
    ) => {
      sent.push(inputs);
      return { runId: 7 };
    },
  };
  return { sent, port };
}

const target = { owner: "acme", repo: "widgets", issueNumber: 42 };
const deps = { newId: () => "nonce-1" };

describe("dispatchTick", () => {
  it("sends no slot for a goal's one slot, as callers from before slots expect", async () => {
    const { sent, port } = recorder();
    expect(await dispatchTick(deps, port, target, "loopx-tick.yml", "main")).toBe(7);
    expect(sent).toEqual([{ goal: "42", nonce: "nonce-1" }]);
  });

  it("names the slot a parallel goal's tick runs in", async () => {
    const { sent, port } = recorder();
    await dispatchTick(deps, port, target, "loopx-tick.yml", "main", "2");
    expect(sent).toEqual([{ goal: "42", slot: "2", nonce: "nonce-1" }]);
  });
});
