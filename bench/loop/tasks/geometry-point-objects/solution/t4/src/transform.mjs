import { add, assertPoint, sub } from "./point.mjs";

const ORIGIN = Object.freeze({ x: 0, y: 0 });

export function translate(p, offset) {
  return add(assertPoint(p), assertPoint(offset, "offset"));
}

export function scale(p, k, origin = ORIGIN) {
  const v = sub(assertPoint(p), assertPoint(origin, "origin"));
  return add(origin, { x: v.x * k, y: v.y * k });
}

/** Rotates `p` counter-clockwise by `radians` around `origin`. */
export function rotate(p, radians, origin = ORIGIN) {
  const { x, y } = sub(assertPoint(p), assertPoint(origin, "origin"));
  const c = Math.cos(radians);
  const s = Math.sin(radians);
  return add(origin, { x: x * c - y * s, y: x * s + y * c });
}
