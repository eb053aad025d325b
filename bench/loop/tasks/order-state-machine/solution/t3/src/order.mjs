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

/** An event the order's state does not allow; callers branch on `state` and `event`. */
export class TransitionError extends Error {
  constructor(state, event, reason) {
    super(reason ?? `cannot ${event} an order that is ${state}`);
    this.name = "TransitionError";
    this.state = state;
    this.event = event;
  }
}

/** The events an order in `state` accepts, sorted (what a UI offers as buttons). */
export function allowedEvents(state) {
  if (!(state in TRANSITIONS)) throw new TypeError(`unknown order state: ${state}`);
  return Object.keys(TRANSITIONS[state]).sort();
}

/** The state an order in `state` moves to on `event`; throws when the event is not allowed. */
export function next(state, event) {
  const to = TRANSITIONS[state]?.[event];
  if (to === undefined) throw new TransitionError(state, event);
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
      const why = `order ${order.id} is past its 30-day refund window`;
      throw new TransitionError(order.state, event, why);
    }
  }
  return { ...order, state, history: [...order.history, { state, event, at }] };
}
