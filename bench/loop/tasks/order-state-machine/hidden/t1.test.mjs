import assert from "node:assert/strict";
import { test } from "node:test";
import { apply, createOrder } from "../src/order.mjs";

test("history lists every state with its event and time", () => {
  const o0 = createOrder("A-1", 100);
  const o1 = apply(o0, "pay", 200);
  const o2 = apply(o1, "cancel", 300);
  assert.equal(o2.id, "A-1");
  assert.equal(o2.state, "cancelled");
  assert.deepEqual(o2.history, [
    { state: "created", event: null, at: 100 },
    { state: "paid", event: "pay", at: 200 },
    { state: "cancelled", event: "cancel", at: 300 },
  ]);
});

test("apply leaves the order it was given untouched", () => {
  const o0 = createOrder("A-2", 1);
  const o1 = apply(o0, "pay", 2);
  assert.equal(o0.state, "created");
  assert.equal(o0.history.length, 1);
  assert.equal(o1.history.length, 2);
});

test("a refused event throws and changes nothing", () => {
  const o = createOrder("A-3", 1);
  assert.throws(() => apply(o, "ship", 2), /cannot ship an order that is created/);
  assert.equal(o.state, "created");
});
