import assert from "node:assert/strict";
import { test } from "node:test";
import { PriorityQueue } from "../src/priority-queue.mjs";

test("equal priorities come out first in, first out", () => {
  const q = new PriorityQueue();
  const jobs = Array.from({ length: 12 }, (_, i) => `job-${i}`);
  for (const j of jobs) q.push(j, 5);
  const out = [];
  while (q.size > 0) out.push(q.pop());
  assert.deepEqual(out, jobs);
});

test("ties stay in order among other priorities, pushes and pops interleaved", () => {
  const q = new PriorityQueue();
  q.push("x1", 2);
  q.push("y1", 1);
  q.push("x2", 2);
  q.push("y2", 1);
  assert.equal(q.pop(), "y1");
  q.push("x3", 2);
  q.push("y3", 1);
  const out = [];
  while (q.size > 0) out.push(q.pop());
  assert.deepEqual(out, ["y2", "y3", "x1", "x2", "x3"]);
});

test("a custom compare stays stable", () => {
  const q = new PriorityQueue((a, b) => a.localeCompare(b));
  for (const [v, p] of [
    ["1", "b"],
    ["2", "a"],
    ["3", "b"],
    ["4", "a"],
    ["5", "b"],
  ])
    q.push(v, p);
  assert.deepEqual([q.pop(), q.pop(), q.pop(), q.pop(), q.pop()], ["2", "4", "1", "3", "5"]);
});
