/** Points are { x, y } objects. */

export function add(a, b) {
  return { x: a.x + b.x, y: a.y + b.y };
}

export function sub(a, b) {
  return { x: a.x - b.x, y: a.y - b.y };
}

/** The z of the cross product: twice the signed area of the triangle (origin, a, b). */
export function cross(a, b) {
  return a.x * b.y - a.y * b.x;
}

export function dist(a, b) {
  return Math.hypot(a.x - b.x, a.y - b.y);
}
