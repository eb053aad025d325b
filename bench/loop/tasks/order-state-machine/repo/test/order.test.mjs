import assert from "node:assert/strict";
import { test } from "node:test";
import { next } from "../src/order.mjs";

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
