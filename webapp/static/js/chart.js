// A bar chart on a canvas: one bar per integer x (values[i] at x = x0 + i), axes with ticks at round steps
// and their labels. The caller gives the numbers (from the API); this only draws them.

// A round step (1, 2 or 5 times a power of ten) giving about `n` ticks over `span`.
function step(span, n) {
  const raw = span / n, p = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw);
}

export function barChart(canvas, values, {x0 = 0, xLabel = "", yLabel = "", percent = true, color = "#4a7bd0"} = {}) {
  const ctx = canvas.getContext("2d"), W = canvas.width, H = canvas.height;
  const left = 52, right = 10, top = 10, bottom = 40, w = W - left - right, h = H - top - bottom;
  ctx.clearRect(0, 0, W, H);
  ctx.font = "11px system-ui, sans-serif"; ctx.fillStyle = "#1d2430"; ctx.strokeStyle = "#556";
  const ymax = Math.max(...values, 0) || 1, ys = step(ymax, 4), ytop = Math.ceil(ymax / ys) * ys;
  const n = values.length, bw = w / Math.max(n, 1);
  ctx.fillStyle = color;
  values.forEach((v, i) => {
    const bh = (v / ytop) * h;
    ctx.fillRect(left + i * bw, top + h - bh, Math.max(bw - (bw > 3 ? 1 : 0), 0.5), bh);
  });
  ctx.fillStyle = "#1d2430"; ctx.beginPath();
  ctx.moveTo(left, top); ctx.lineTo(left, top + h); ctx.lineTo(left + w, top + h); ctx.stroke();
  ctx.textAlign = "right"; ctx.textBaseline = "middle";
  for (let y = 0; y <= ytop + ys / 2; y += ys) {
    const py = top + h - (y / ytop) * h;
    ctx.beginPath(); ctx.moveTo(left - 4, py); ctx.lineTo(left, py); ctx.stroke();
    ctx.fillText(percent ? `${+(100 * y).toPrecision(3)}%` : String(+y.toPrecision(3)), left - 6, py);
  }
  ctx.textAlign = "center"; ctx.textBaseline = "top";
  const xs = step(Math.max(n, 1), 6);
  for (let x = Math.ceil(x0 / xs) * xs; x < x0 + n; x += xs) {
    const px = left + (x - x0 + 0.5) * bw;
    ctx.beginPath(); ctx.moveTo(px, top + h); ctx.lineTo(px, top + h + 4); ctx.stroke();
    ctx.fillText(String(x), px, top + h + 6);
  }
  ctx.fillText(xLabel, left + w / 2, top + h + 22);
  ctx.save(); ctx.translate(12, top + h / 2); ctx.rotate(-Math.PI / 2); ctx.fillText(yLabel, 0, 0); ctx.restore();
}
