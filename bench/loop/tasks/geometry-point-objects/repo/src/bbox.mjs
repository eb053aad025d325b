/** The smallest axis-aligned box around `points`: { min: [x, y], max: [x, y] }. */
export function bbox(points) {
  if (points.length === 0) throw new RangeError("bbox needs at least one point");
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  return { min: [Math.min(...xs), Math.min(...ys)], max: [Math.max(...xs), Math.max(...ys)] };
}

/** Whether `p` lies in `box`, edges included. */
export function contains(box, p) {
  return p[0] >= box.min[0] && p[0] <= box.max[0] && p[1] >= box.min[1] && p[1] <= box.max[1];
}
