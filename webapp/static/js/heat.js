// A heatmap drawn on a canvas: grid[i][j] coloured by color(value, i, j).
export function heat(canvas, grid, color) {
  const ctx = canvas.getContext("2d"); const n = grid.length, m = grid[0].length;
  const w = canvas.width / m, h = canvas.height / n; ctx.clearRect(0, 0, canvas.width, canvas.height);
  grid.forEach((row, i) => row.forEach((v, j) => { ctx.fillStyle = color(v, i, j); ctx.fillRect(j * w, i * h, Math.ceil(w), Math.ceil(h)); }));
}
