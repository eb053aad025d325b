import assert from "node:assert/strict";
import { test } from "node:test";
import { apply, createOrder, next } from "../src/order.mjs";

test("the happy path", () => {
  assert.equal(next("created", "pay"), "paid");
  assert.equal(next("paid", "ship"), "shipped");
  assert.equal(next("shipped", "deliver"), "delivered");
});

test("cancelling is allowed until shipping", () => {
  assert.equal(next("created", "cancel"), "cancelled");
  assert.equal(next("paid", "cancel"), "cancelled");
  assert.throws(() => next("shipped", "cancel"), /cannot cancel an order that is shipped/);
});

test("apply records each transition", () => {
  const o = apply(apply(createOrder("o1", 10), "pay", 20), "ship", 30);
  assert.equal(o.state, "shipped");
  assert.deepEqual(
    o.history.map((h) => h.state),
    ["created", "paid", "shipped"],
  );
});
