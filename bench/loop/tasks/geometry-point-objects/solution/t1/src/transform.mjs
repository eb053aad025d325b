import { add, sub } from "./point.mjs";

// Transforms still take [x, y] pairs until they move to { x, y } as well: convert here.
const toPoint = ([x, y]) => ({ x, y });
const toPair = (p) => [p.x, p.y];

export function translate(p, offset) {
  return toPair(add(toPoint(p), toPoint(offset)));
}

export function scale(p, k, origin = [0, 0]) {
  const o = toPoint(origin);
  const v = sub(toPoint(p), o);
  return toPair(add(o, { x: v.x * k, y: v.y * k }));
}

/** Rotates `p` counter-clockwise by `radians` around `origin`. */
export function rotate(p, radians, origin = [0, 0]) {
  const o = toPoint(origin);
  const { x, y } = sub(toPoint(p), o);
  const c = Math.cos(radians);
  const s = Math.sin(radians);
  return toPair(add(o, { x: x * c - y * s, y: x * s + y * c }));
}
