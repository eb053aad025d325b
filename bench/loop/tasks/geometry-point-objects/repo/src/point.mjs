/** Points are [x, y] pairs. */

export function add(a, b) {
  return [a[0] + b[0], a[1] + b[1]];
}

export function sub(a, b) {
  return [a[0] - b[0], a[1] - b[1]];
}

/** The z of the cross product: twice the signed area of the triangle (origin, a, b). */
export function cross(a, b) {
  return a[0] * b[1] - a[1] * b[0];
}

export function dist(a, b) {
  return Math.hypot(a[0] - b[0], a[1] - b[1]);
}
