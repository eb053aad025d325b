import { assertPoint, cross, dist } from "./point.mjs";

function vertices(poly) {
  poly.forEach((p, i) => {
    assertPoint(p, `vertex ${i}`);
  });
  return poly;
}

/** Area of a simple polygon (vertices in order, either direction): the shoelace formula. */
export function area(poly) {
  vertices(poly);
  let twice = 0;
  for (let i = 0; i < poly.length; i++) twice += cross(poly[i], poly[(i + 1) % poly.length]);
  return Math.abs(twice) / 2;
}

export function perimeter(poly) {
  vertices(poly);
  let sum = 0;
  for (let i = 0; i < poly.length; i++) sum += dist(poly[i], poly[(i + 1) % poly.length]);
  return sum;
}

/** The mean of the vertices, as { x, y }. */
export function centroid(poly) {
  vertices(poly);
  const n = poly.length;
  return { x: poly.reduce((s, p) => s + p.x, 0) / n, y: poly.reduce((s, p) => s + p.y, 0) / n };
}
