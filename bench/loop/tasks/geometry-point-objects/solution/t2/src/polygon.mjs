import { cross, dist } from "./point.mjs";

/** Area of a simple polygon (vertices in order, either direction): the shoelace formula. */
export function area(poly) {
  let twice = 0;
  for (let i = 0; i < poly.length; i++) twice += cross(poly[i], poly[(i + 1) % poly.length]);
  return Math.abs(twice) / 2;
}

export function perimeter(poly) {
  let sum = 0;
  for (let i = 0; i < poly.length; i++) sum += dist(poly[i], poly[(i + 1) % poly.length]);
  return sum;
}

/** The mean of the vertices, as { x, y }. */
export function centroid(poly) {
  const n = poly.length;
  return { x: poly.reduce((s, p) => s + p.x, 0) / n, y: poly.reduce((s, p) => s + p.y, 0) / n };
}
