/** Points are { x, y } objects. */

/**
 * Throws unless `p` is a { x, y } point with finite coordinates. Arrays get a pointed message:
 * callers written for 1.x pass [x, y] pairs, which would otherwise give NaN far from the cause.
 */
export function assertPoint(p, what = "point") {
  const ok =
    typeof p === "object" &&
    p !== null &&
    !Array.isArray(p) &&
    Number.isFinite(p.x) &&
    Number.isFinite(p.y);
  if (!ok) {
    const hint = Array.isArray(p) ? " (points are no longer [x, y] arrays: pass { x, y })" : "";
    throw new TypeError(
      `${what}: expected a point {x, y} of finite numbers, got ${JSON.stringify(p)}${hint}`,
    );
  }
  return p;
}

export function add(a, b) {
  assertPoint(a, "a");
  assertPoint(b, "b");
  return { x: a.x + b.x, y: a.y + b.y };
}

export function sub(a, b) {
  assertPoint(a, "a");
  assertPoint(b, "b");
  return { x: a.x - b.x, y: a.y - b.y };
}

/** The z of the cross product: twice the signed area of the triangle (origin, a, b). */
export function cross(a, b) {
  assertPoint(a, "a");
  assertPoint(b, "b");
  return a.x * b.y - a.y * b.x;
}

export function dist(a, b) {
  assertPoint(a, "a");
  assertPoint(b, "b");
  return Math.hypot(a.x - b.x, a.y - b.y);
}
