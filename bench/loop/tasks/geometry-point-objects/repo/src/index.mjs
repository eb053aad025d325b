export { bbox, contains } from "./bbox.mjs";
export { add, cross, dist, sub } from "./point.mjs";
export { area, centroid, perimeter } from "./polygon.mjs";
export { rotate, scale, translate } from "./transform.mjs";
