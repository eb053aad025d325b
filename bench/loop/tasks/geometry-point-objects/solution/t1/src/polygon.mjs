import { cross, dist } from "./point.mjs";

// Polygons still take [x, y] vertices until they move to { x, y } as well: convert here.
const toPoint = ([x, y]) => ({ x, y });

/** Area of a simple polygon (vertices in order, either direction): the shoelace formula. */
export function area(poly) {
  const pts = poly.map(toPoint);
  let twice = 0;
  for (let i = 0; i < pts.length; i++) twice += cross(pts[i], pts[(i + 1) % pts.length]);
  return Math.abs(twice) / 2;
}

export function perimeter(poly) {
  const pts = poly.map(toPoint);
  let sum = 0;
  for (let i = 0; i < pts.length; i++) sum += dist(pts[i], pts[(i + 1) % pts.length]);
  return sum;
}

/** The mean of the vertices, as [x, y]. */
export function centroid(poly) {
  const n = poly.length;
  return [poly.reduce((s, p) => s + p[0], 0) / n, poly.reduce((s, p) => s + p[1], 0) / n];
}
