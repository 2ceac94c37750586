import { CONSTELLATION, type Field, type Random } from "./rules";

/**
 * The background constellation: particles drifting in a field, linked when closer than 120 px, pulled
 * towards the pointer within 150 px. Plain numbers in one Float32Array (x, y, vx, vy per particle) so
 * a frame allocates nothing.
 */
export interface Constellation {
  count: number;
  data: Float32Array;
}

const STRIDE = 4;
const SPEED = 0.03; // px per ms at rest
const MAX_SPEED = 0.25;
const PULL = 0.0006; // px per ms² at the edge of the attraction radius
const DAMPING = 0.002; // per ms, towards the resting speed when pulled

export function createConstellation(field: Field, random: Random, count: number = CONSTELLATION.particles): Constellation {
  const data = new Float32Array(count * STRIDE);
  for (let i = 0; i < count; i++) {
    const angle = random() * Math.PI * 2;
    data[i * STRIDE] = random() * field.width;
    data[i * STRIDE + 1] = random() * field.height;
    data[i * STRIDE + 2] = Math.cos(angle) * SPEED;
    data[i * STRIDE + 3] = Math.sin(angle) * SPEED;
  }
  return { count, data };
}

export interface Pointer {
  x: number;
  y: number;
}

/** Moves every particle by `dtMs` (bouncing off the edges), pulled towards `pointer` when near it. */
export function stepConstellation(c: Constellation, dtMs: number, field: Field, pointer: Pointer | null): void {
  const d = c.data;
  const r = CONSTELLATION.attractionRadiusPx;
  for (let i = 0; i < c.count; i++) {
    const o = i * STRIDE;
    let vx = d[o + 2]!;
    let vy = d[o + 3]!;
    if (pointer) {
      const dx = pointer.x - d[o]!;
      const dy = pointer.y - d[o + 1]!;
      const dist = Math.hypot(dx, dy);
      // Pulled in, but never onto the pointer itself: the gathered stars keep a small orbit.
      if (dist < r && dist > 12) {
        const pull = (PULL * dtMs) / dist;
        vx += dx * pull;
        vy += dy * pull;
        const damp = Math.max(0, 1 - DAMPING * dtMs);
        vx *= damp;
        vy *= damp;
      }
    }
    const speed = Math.hypot(vx, vy);
    if (speed > MAX_SPEED) {
      vx = (vx / speed) * MAX_SPEED;
      vy = (vy / speed) * MAX_SPEED;
    }
    let x = d[o]! + vx * dtMs;
    let y = d[o + 1]! + vy * dtMs;
    if (x < 0 || x > field.width) {
      vx = -vx;
      x = Math.min(Math.max(x, 0), field.width);
    }
    if (y < 0 || y > field.height) {
      vy = -vy;
      y = Math.min(Math.max(y, 0), field.height);
    }
    d[o] = x;
    d[o + 1] = y;
    d[o + 2] = vx;
    d[o + 3] = vy;
  }
}

/**
 * Calls `link` for every pair closer than the link distance (with its closeness, 0..1) and returns how
 * many links are visible at once around the pointer: pairs whose both stars are within its reach.
 */
export function forEachLink(
  c: Constellation,
  pointer: Pointer | null,
  link: ((ax: number, ay: number, bx: number, by: number, closeness: number) => void) | null,
): number {
  const d = c.data;
  const max = CONSTELLATION.linkDistancePx;
  const max2 = max * max;
  const reach2 = CONSTELLATION.attractionRadiusPx * CONSTELLATION.attractionRadiusPx;
  let near = 0;
  for (let i = 0; i < c.count; i++) {
    const ax = d[i * STRIDE]!;
    const ay = d[i * STRIDE + 1]!;
    const aNear = pointer !== null && (ax - pointer.x) ** 2 + (ay - pointer.y) ** 2 < reach2;
    for (let j = i + 1; j < c.count; j++) {
      const bx = d[j * STRIDE]!;
      const by = d[j * STRIDE + 1]!;
      const dist2 = (ax - bx) ** 2 + (ay - by) ** 2;
      if (dist2 >= max2) continue;
      if (link) link(ax, ay, bx, by, 1 - Math.sqrt(dist2) / max);
      if (aNear && (bx - pointer.x) ** 2 + (by - pointer.y) ** 2 < reach2) near++;
    }
  }
  return near;
}

/** Keeps the particles inside a field that changed size. */
export function fitConstellation(c: Constellation, field: Field): void {
  for (let i = 0; i < c.count; i++) {
    c.data[i * STRIDE] = Math.min(c.data[i * STRIDE]!, field.width);
    c.data[i * STRIDE + 1] = Math.min(c.data[i * STRIDE + 1]!, field.height);
  }
}
