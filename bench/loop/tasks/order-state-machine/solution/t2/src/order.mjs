/** Where an order can go from each state, by event. */
const TRANSITIONS = {
  created: { pay: "paid", cancel: "cancelled" },
  paid: { ship: "shipped", cancel: "cancelled" },
  shipped: { deliver: "delivered" },
  delivered: { refund: "refunded" },
  cancelled: {},
  refunded: {},
};

const DAY_MS = 86_400_000;
/** How long after delivery a refund is still accepted. */
export const REFUND_WINDOW_MS = 30 * DAY_MS;

/** The state an order in `state` moves to on `event`; throws when the event is not allowed. */
export function next(state, event) {
  const to = TRANSITIONS[state]?.[event];
  if (to === undefined) throw new Error(`cannot ${event} an order that is ${state}`);
  return to;
}

/** A new order; `at` is when it was created (ms since the epoch). */
export function createOrder(id, at) {
  return { id, state: "created", history: [{ state: "created", event: null, at }] };
}

/** The order after `event` at `at`; the order given is left as it was (callers keep snapshots). */
export function apply(order, event, at) {
  const state = next(order.state, event);
  if (event === "refund") {
    const delivered = order.history.findLast((h) => h.state === "delivered");
    if (at - delivered.at > REFUND_WINDOW_MS) {
      throw new Error(`order ${order.id} is past its 30-day refund window`);
    }
  }
  return { ...order, state, history: [...order.history, { state, event, at }] };
}
