import assert from "node:assert/strict";
import { test } from "node:test";
import { PriorityQueue } from "../src/priority-queue.mjs";

test("pops in priority order", () => {
  const q = new PriorityQueue();
  for (const [v, p] of [
    ["c", 3],
    ["a", 1],
    ["d", 4],
    ["b", 2],
  ])
    q.push(v, p);
  assert.equal(q.size, 4);
  assert.equal(q.peek(), "a");
  assert.deepEqual([q.pop(), q.pop(), q.pop(), q.pop(), q.pop()], ["a", "b", "c", "d", undefined]);
});

test("a custom compare makes a max-heap", () => {
  const q = new PriorityQueue((a, b) => b - a);
  q.push("low", 1);
  q.push("high", 9);
  assert.equal(q.pop(), "high");
});

test("equal priorities pop in insertion order", () => {
  const q = new PriorityQueue();
  for (const v of ["j1", "j2", "j3", "j4", "j5"]) q.push(v, 0);
  assert.deepEqual([q.pop(), q.pop(), q.pop(), q.pop(), q.pop()], ["j1", "j2", "j3", "j4", "j5"]);
});

test("remove takes an item out wherever it is", () => {
  const q = new PriorityQueue();
  for (const [v, p] of [
    ["a", 1],
    ["b", 2],
    ["c", 3],
  ])
    q.push(v, p);
  assert.equal(q.remove("b"), true);
  assert.equal(q.remove("b"), false);
  assert.deepEqual([q.pop(), q.pop(), q.pop()], ["a", "c", undefined]);
});

test("iterating shows priority order without popping; drain empties", () => {
  const q = new PriorityQueue();
  for (const [v, p] of [
    ["b", 2],
    ["a", 1],
    ["c", 3],
  ])
    q.push(v, p);
  assert.deepEqual([...q], ["a", "b", "c"]);
  assert.equal(q.size, 3);
  assert.deepEqual(q.drain(), ["a", "b", "c"]);
  assert.equal(q.size, 0);
});
