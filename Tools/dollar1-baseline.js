#!/usr/bin/env node
// The $1 unistroke recognizer in plain JavaScript, as a speed and accuracy
// baseline for `gestures eval` and `gestures bench`: our own port of the
// pseudocode in Wobbrock, Wilson and Li, "Gestures without libraries,
// toolkits or training" (UIST 2007), appendix A, written for this
// repository (no code of the authors' dollar.js is in it). The constants are
// the paper's: 64 points, a 250 x 250 square, golden-section search over
// +-45 degrees to 2 degrees.
//
// Usage (node 18 or later):
//   node Tools/dollar1-baseline.js XML_LOGS_DIR [E=1] [ITERATIONS=100]
//
// It runs the user-dependent protocol of `gestures eval` on the $1 XML logs:
// per subject and speed, E templates of each gesture and one other sample of
// it as the candidate, drawn with SplitMix64 (seed 1) exactly as
// UnistrokeEvaluation draws them, ITERATIONS times. Only `recognize` is
// timed (normalising the candidate included, reading files not), and one
// JSON line is printed: accuracy, recognitions, mean microseconds per call.
'use strict';
const fs = require('fs'), path = require('path');

// ---- The recognizer (the paper's steps, in its names) ----------------------
const N = 64, SIZE = 250, HALF_DIAGONAL = 0.5 * Math.sqrt(2 * SIZE * SIZE);
const THETA = Math.PI / 4, THETA_DELTA = Math.PI / 90, PHI = 0.5 * (Math.sqrt(5) - 1);

function distance(a, b) {
  const dx = b.x - a.x, dy = b.y - a.y;
  return Math.sqrt(dx * dx + dy * dy);
}

function pathLength(points) {
  let d = 0;
  for (let i = 1; i < points.length; i++) d += distance(points[i - 1], points[i]);
  return d;
}

// Step 1. Points evenly spaced along the path; the input is not changed.
function resample(points, n) {
  const interval = pathLength(points) / (n - 1);
  const out = [{ x: points[0].x, y: points[0].y }];
  let walked = 0, previous = points[0];
  for (let i = 1; i < points.length; i++) {
    let current = points[i], d = distance(previous, current);
    while (d > 0 && walked + d >= interval) {
      const t = (interval - walked) / d;
      const q = { x: previous.x + t * (current.x - previous.x), y: previous.y + t * (current.y - previous.y) };
      out.push(q);
      previous = q; walked = 0; d = distance(previous, current);
    }
    walked += d; previous = current;
  }
  while (out.length < n) out.push({ x: points[points.length - 1].x, y: points[points.length - 1].y });
  return out.slice(0, n);
}

function centroid(points) {
  let x = 0, y = 0;
  for (const p of points) { x += p.x; y += p.y; }
  return { x: x / points.length, y: y / points.length };
}

// Step 2. The angle from the first point to the centroid, and rotation about the centroid.
function indicativeAngle(points) {
  const c = centroid(points);
  return Math.atan2(c.y - points[0].y, c.x - points[0].x);
}

function rotateBy(points, radians) {
  const c = centroid(points), cos = Math.cos(radians), sin = Math.sin(radians);
  return points.map(p => ({
    x: (p.x - c.x) * cos - (p.y - c.y) * sin + c.x,
    y: (p.x - c.x) * sin + (p.y - c.y) * cos + c.y,
  }));
}

// Step 3. Non-uniform scaling to the square, then the centroid to the origin.
function scaleTo(points, size) {
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
  for (const p of points) {
    minX = Math.min(minX, p.x); maxX = Math.max(maxX, p.x);
    minY = Math.min(minY, p.y); maxY = Math.max(maxY, p.y);
  }
  const w = maxX - minX, h = maxY - minY;
  return points.map(p => ({ x: p.x * size / w, y: p.y * size / h }));
}

function translateTo(points, k) {
  const c = centroid(points);
  return points.map(p => ({ x: p.x + k.x - c.x, y: p.y + k.y - c.y }));
}

function normalize(points) {
  let p = resample(points, N);
  p = rotateBy(p, -indicativeAngle(p));
  p = scaleTo(p, SIZE);
  return translateTo(p, { x: 0, y: 0 });
}

// Step 4. Mean point distance at the best angle, by golden-section search.
function pathDistance(a, b) {
  let d = 0;
  for (let i = 0; i < a.length; i++) d += distance(a[i], b[i]);
  return d / a.length;
}

function distanceAtAngle(points, template, radians) {
  return pathDistance(rotateBy(points, radians), template);
}

function distanceAtBestAngle(points, template, a, b, delta) {
  let x1 = PHI * a + (1 - PHI) * b, f1 = distanceAtAngle(points, template, x1);
  let x2 = (1 - PHI) * a + PHI * b, f2 = distanceAtAngle(points, template, x2);
  while (Math.abs(b - a) > delta) {
    if (f1 < f2) {
      b = x2; x2 = x1; f2 = f1;
      x1 = PHI * a + (1 - PHI) * b; f1 = distanceAtAngle(points, template, x1);
    } else {
      a = x1; x1 = x2; f1 = f2;
      x2 = (1 - PHI) * a + PHI * b; f2 = distanceAtAngle(points, template, x2);
    }
  }
  return Math.min(f1, f2);
}

class Recognizer {
  constructor() { this.templates = []; }
  add(name, points) { this.templates.push({ name, points: normalize(points) }); }
  recognize(points) {
    const candidate = normalize(points);
    let best = Infinity, name = null;
    for (const t of this.templates) {
      const d = distanceAtBestAngle(candidate, t.points, -THETA, THETA, THETA_DELTA);
      if (d < best) { best = d; name = t.name; }
    }
    return { name, score: 1 - best / HALF_DIAGONAL };
  }
}

// ---- The protocol of `gestures eval` (user-dependent) ----------------------
function xmlFiles(dir) {
  let out = [];
  for (const name of fs.readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    if (fs.statSync(p).isDirectory()) out = out.concat(xmlFiles(p));
    else if (name.endsWith('.xml')) out.push(p);
  }
  return out;
}

function readLog(file) {
  const text = fs.readFileSync(file, 'utf8');
  const head = text.match(/<Gesture [^>]*>/)[0];
  const attribute = key => (head.match(new RegExp(' ' + key + '="([^"]*)"')) || [])[1];
  const points = [...text.matchAll(/<Point X="([-0-9.]+)" Y="([-0-9.]+)"/g)].map(m => ({ x: +m[1], y: +m[2] }));
  return { gesture: attribute('Name').replace(/[0-9]+$/, ''), subject: attribute('Subject'), speed: attribute('Speed'), points };
}

// SplitMix64 and Swift's next(upperBound:) (Lemire's method), as GestureEvaluation's SplitMix64.
const MASK = (1n << 64n) - 1n;
function splitMix64(seed) {
  let state = BigInt(seed);
  const next = () => {
    state = (state + 0x9E3779B97F4A7C15n) & MASK;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & MASK;
    return z ^ (z >> 31n);
  };
  const below = bound => {
    const b = BigInt(bound);
    let m = next() * b;
    if ((m & MASK) < b) {
      const t = ((1n << 64n) - b) % b;
      while ((m & MASK) < t) m = next() * b;
    }
    return Number(m >> 64n);
  };
  // The first `count` of a partial Fisher-Yates shuffle of 0..<n.
  const sample = (count, n) => {
    const indices = [...Array(n).keys()];
    for (let i = 0; i < Math.min(count, n); i++) {
      const j = i + below(n - i);
      [indices[i], indices[j]] = [indices[j], indices[i]];
    }
    return indices.slice(0, count);
  };
  return { sample };
}

function main() {
  const [root, eArgument = '1', iterationsArgument = '100'] = process.argv.slice(2);
  if (!root || !fs.existsSync(root) || !fs.statSync(root).isDirectory()) {
    console.error('usage: node Tools/dollar1-baseline.js XML_LOGS_DIR [E=1] [ITERATIONS=100] (a folder of $1 XML logs)');
    process.exit(64);
  }
  const E = +eArgument, iterations = +iterationsArgument;
  const samples = xmlFiles(root).map(readLog);
  const random = splitMix64(1);
  let correct = 0, total = 0, nanoseconds = 0n;
  for (const subject of [...new Set(samples.map(s => s.subject))].sort()) {
    for (const speed of [...new Set(samples.filter(s => s.subject === subject).map(s => s.speed))].sort()) {
      const pool = {};
      for (const s of samples) if (s.subject === subject && s.speed === speed) (pool[s.gesture] ||= []).push(s.points);
      for (let iteration = 0; iteration < iterations; iteration++) {
        const recognizer = new Recognizer();
        const candidates = [];
        for (const gesture of Object.keys(pool).sort()) {
          const strokes = pool[gesture];
          if (strokes.length <= E) continue;
          const picks = random.sample(E + 1, strokes.length);
          for (const i of picks.slice(0, -1)) recognizer.add(gesture, strokes[i]);
          candidates.push([gesture, strokes[picks[picks.length - 1]]]);
        }
        for (const [gesture, points] of candidates) {
          const start = process.hrtime.bigint();
          const result = recognizer.recognize(points);
          nanoseconds += process.hrtime.bigint() - start;
          total++;
          if (result.name === gesture) correct++;
        }
      }
    }
  }
  console.log(JSON.stringify({
    recognizer: 'dollar1-js', templates: E, accuracy: +(correct / total).toFixed(4), recognitions: total,
    mean_microseconds: +(Number(nanoseconds) / total / 1000).toFixed(2),
  }));
}

main();
