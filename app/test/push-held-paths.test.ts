import { claimNext, type GoalState } from "@loopx/core";
import { describe, expect, it } from "vitest";
import {
  at,
  claimInput,
  ctx,
  expectOk,
  minutes,
  state,
  todo,
} from "../../packages/core/test/fixtures.ts";
import { heldPaths } from "../src/api/push-grant.ts";

function claim(s: GoalState, n: number, slot: string): GoalState {
  return expectOk(claimNext(s, claimInput(n, { slot }), ctx(at(0))).result).state;
}

describe("heldPaths: what a push may not touch beside the goal's other running ticks", () => {
  const start = state(
    {
      todos: [
        todo("T1", { paths: ["src/api/**"] }),
        todo("T2", { paths: ["docs/**", "README.md"] }),
        todo("T3", { paths: ["web/**"] }),
      ],
    },
    { parallel: 3 },
  );

  it("names every other running todo with its declared paths, never the tick's own", () => {
    const s = claim(claim(start, 1, "1"), 2, "2");
    const [mine, other] = s.ticks;
    if (!mine || !other) throw new Error("two ticks expected");
    expect(heldPaths(s, mine, at(0))).toEqual([{ todo: "T2", paths: ["docs/**", "README.md"] }]);
    expect(heldPaths(s, other, at(0))).toEqual([{ todo: "T1", paths: ["src/api/**"] }]);
  });

  it("holds nothing once the other tick's lease has run out, or when the tick runs alone", () => {
    const s = claim(claim(start, 1, "1"), 2, "2");
    const mine = s.ticks[0];
    if (!mine) throw new Error("a tick expected");
    expect(heldPaths(s, mine, at(minutes(31)))).toEqual([]);
    const alone = claim(start, 1, "1");
    expect(heldPaths(alone, alone.ticks[0] ?? mine, at(0))).toEqual([]);
  });
});
