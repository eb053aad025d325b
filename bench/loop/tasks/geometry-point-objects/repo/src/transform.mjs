import { add, sub } from "./point.mjs";

export function translate(p, offset) {
  return add(p, offset);
}

export function scale(p, k, origin = [0, 0]) {
  const v = sub(p, origin);
  return add(origin, [v[0] * k, v[1] * k]);
}

/** Rotates `p` counter-clockwise by `radians` around `origin`. */
export function rotate(p, radians, origin = [0, 0]) {
  const [x, y] = sub(p, origin);
  const c = Math.cos(radians);
  const s = Math.sin(radians);
  return add(origin, [x * c - y * s, x * s + y * c]);
}
