import { assertPoint } from "./point.mjs";

/** The smallest axis-aligned box around `points`: { min: { x, y }, max: { x, y } }. */
export function bbox(points) {
  if (points.length === 0) throw new RangeError("bbox needs at least one point");
  points.forEach((p, i) => {
    assertPoint(p, `point ${i}`);
  });
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  return {
    min: { x: Math.min(...xs), y: Math.min(...ys) },
    max: { x: Math.max(...xs), y: Math.max(...ys) },
  };
}

/** Whether `p` lies in `box`, edges included. */
export function contains(box, p) {
  assertPoint(p);
  return p.x >= box.min.x && p.x <= box.max.x && p.y >= box.min.y && p.y <= box.max.y;
}
