// Heatmaps with axes, shared by every view that draws one: grid[i][j] is the cell of row i (y axis, first row at
// the bottom) and column j (x axis); both axes get ticks at round values and a label, and a scale on the right
// says what the colours mean: a continuous bar (`scale.min`..`scale.max`) or a list of categories. The page
// only draws: every value comes from the API.
const FONT = "11px system-ui, sans-serif";
const MARGIN = {left: 46, right: 86, top: 10, bottom: 38};
const MAX_CSS_WIDTH = 560;

// A round tick step (1, 2 or 5 times a power of ten, times `unit`) giving at most `count` ticks over `span`.
function tickStep(span, count, unit) {
  const raw = Math.max(span / count, unit);
  const power = 10 ** Math.floor(Math.log10(raw / unit));
  const step = [1, 2, 5, 10].map((k) => k * power * unit).find((s) => s >= raw);
  return Math.max(unit, step);
}

function ticks(start, step, n, count) {
  // Values start + k*step of the n cells, at round multiples; each with its cell index.
  const every = tickStep(n * step, count, step);
  const out = [];
  for (let v = Math.ceil(start / every) * every; v <= start + (n - 1) * step; v += every) {
    out.push([v, (v - start) / step]);
  }
  return out;
}

// Size the canvas to its box (at most MAX_CSS_WIDTH CSS pixels wide), sharp on high-density screens.
function fit(canvas) {
  const box = canvas.parentElement ? canvas.parentElement.clientWidth : MAX_CSS_WIDTH;
  const width = Math.max(240, Math.min(MAX_CSS_WIDTH, box));
  const height = Math.round(width * 0.86);
  const dpr = window.devicePixelRatio || 1;
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  canvas.width = Math.round(width * dpr);
  canvas.height = Math.round(height * dpr);
  const ctx = canvas.getContext("2d");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  return {ctx, width, height};
}

function drawAxis(ctx, axis, n, along, length, origin, horizontal) {
  ctx.fillStyle = "#1d2430"; ctx.strokeStyle = "#1d2430"; ctx.font = FONT;
  const count = Math.max(2, Math.floor(length / 48));
  for (const [v, idx] of ticks(axis.start ?? 0, axis.step ?? 1, n, count)) {
    const p = along + (idx + 0.5) * (length / n);
    ctx.beginPath();
    if (horizontal) {
      ctx.moveTo(p, origin); ctx.lineTo(p, origin + 4); ctx.stroke();
      ctx.textAlign = "center"; ctx.textBaseline = "top"; ctx.fillText(String(v), p, origin + 6);
    } else {
      const y = along + length - (idx + 0.5) * (length / n);
      ctx.moveTo(origin, y); ctx.lineTo(origin - 4, y); ctx.stroke();
      ctx.textAlign = "right"; ctx.textBaseline = "middle"; ctx.fillText(String(v), origin - 6, y);
    }
  }
}

function label(ctx, text, x, y, vertical) {
  ctx.save(); ctx.translate(x, y); if (vertical) ctx.rotate(-Math.PI / 2);
  ctx.font = "bold " + FONT; ctx.fillStyle = "#1d2430"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
  ctx.fillText(text, 0, 0); ctx.restore();
}

// The colour key right of the plot: a bar from scale.min (bottom) to scale.max (top) coloured by
// scale.color(v), with round ticks; or, with scale.items ([[colour, text], ...]), one swatch per category.
function drawScale(ctx, scale, x, top, height) {
  ctx.font = FONT; ctx.fillStyle = "#1d2430"; ctx.textBaseline = "middle"; ctx.textAlign = "left";
  if (scale.items) {
    // A long name ("rolls 10 dice") in a smaller font rather than cut at the canvas's edge.
    const room = MARGIN.right - 26, widest = Math.max(...scale.items.map(([, text]) => ctx.measureText(text).width));
    if (widest > room) ctx.font = `${Math.max(8, Math.floor(11 * room / widest))}px system-ui, sans-serif`;
    scale.items.forEach(([colour, text], k) => {
      const y = top + 8 + k * 20;
      ctx.fillStyle = colour; ctx.fillRect(x, y - 6, 12, 12); ctx.strokeStyle = "#667"; ctx.strokeRect(x, y - 6, 12, 12);
      ctx.fillStyle = "#1d2430"; ctx.fillText(text, x + 16, y);
    });
    return;
  }
  const bar = 14, steps = Math.max(2, Math.round(height));
  for (let k = 0; k < steps; k++) {
    ctx.fillStyle = scale.color(scale.min + (scale.max - scale.min) * (k + 0.5) / steps);
    ctx.fillRect(x, top + height - (k + 1) * height / steps, bar, Math.ceil(height / steps) + 0.5);
  }
  ctx.strokeStyle = "#667"; ctx.strokeRect(x, top, bar, height);
  const span = scale.max - scale.min || 1;
  const every = tickStep(span, 5, scale.integer ? 1 : 1e-9);
  ctx.fillStyle = "#1d2430";
  for (let v = Math.ceil(scale.min / every) * every; v <= scale.max + 1e-9; v += every) {
    const y = top + height - (v - scale.min) / span * height;
    ctx.fillRect(x + bar, y, 3, 1);
    ctx.fillText(scale.integer ? String(Math.round(v)) : Number(v.toFixed(6)).toString(), x + bar + 5, y);
  }
  label(ctx, scale.label, x + bar + 40, top + height / 2, true);
}

// Draw `grid` on `canvas`: options {x: {label, start, step}, y: {label, start, step}, color(v, i, j),
// scale (drawScale above), mark: [i, j] or null (outlined cell: the current state), describe(v, i, j): the
// text shown when the pointer rests on a cell (optional)}.
export function heatmap(canvas, grid, {x, y, color, scale, mark = null, describe = null}) {
  canvas.hidden = false;  // shown first: a hidden canvas's box has no width to fit
  const {ctx, width, height} = fit(canvas);
  const n = grid.length, m = grid[0].length;
  const pw = width - MARGIN.left - MARGIN.right, ph = height - MARGIN.top - MARGIN.bottom;
  const w = pw / m, h = ph / n;
  ctx.clearRect(0, 0, width, height);
  grid.forEach((row, i) => row.forEach((v, j) => {
    ctx.fillStyle = color(v, i, j);
    ctx.fillRect(MARGIN.left + j * w, MARGIN.top + (n - 1 - i) * h, w + 0.5, h + 0.5);
  }));
  ctx.strokeStyle = "#667"; ctx.lineWidth = 1; ctx.strokeRect(MARGIN.left, MARGIN.top, pw, ph);
  canvas.onmousemove = describe && ((ev) => {
    const r = canvas.getBoundingClientRect();
    const j = Math.floor((ev.clientX - r.left - MARGIN.left) / w);
    const i = n - 1 - Math.floor((ev.clientY - r.top - MARGIN.top) / h);
    canvas.title = i >= 0 && i < n && j >= 0 && j < m ? describe(grid[i][j], i, j) : "";
  });
  drawAxis(ctx, x, m, MARGIN.left, pw, MARGIN.top + ph, true);
  drawAxis(ctx, y, n, MARGIN.top, ph, MARGIN.left, false);
  label(ctx, x.label, MARGIN.left + pw / 2, height - 8, false);
  label(ctx, y.label, 10, MARGIN.top + ph / 2, true);
  drawScale(ctx, scale, MARGIN.left + pw + 10, MARGIN.top, ph);
  if (mark) {
    const [i, j] = mark;
    const cx = MARGIN.left + (j + 0.5) * w, cy = MARGIN.top + (n - 1 - i + 0.5) * h;
    const r = Math.max(5, Math.max(w, h) / 2 + 2);
    ctx.lineWidth = 3; ctx.strokeStyle = "#fff"; ctx.beginPath(); ctx.arc(cx, cy, r, 0, 2 * Math.PI); ctx.stroke();
    ctx.lineWidth = 1.5; ctx.strokeStyle = "#000"; ctx.beginPath(); ctx.arc(cx, cy, r, 0, 2 * Math.PI); ctx.stroke();
    ctx.lineWidth = 1;
  }
}

// Remove a picture that no longer answers the inputs (after an error): nothing stale stays on screen.
export function clearHeatmap(canvas) {
  canvas.getContext("2d").clearRect(0, 0, canvas.width, canvas.height);
  canvas.hidden = true;
}

// A continuous colour ramp from light yellow (0) through green to dark blue (1), readable in grey too.
export function ramp(t) {
  const u = Math.min(1, Math.max(0, t));
  return `hsl(${60 + 170 * u},${55 + 15 * u}%,${88 - 62 * u}%)`;
}
