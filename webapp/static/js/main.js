// The page: one view per game, each a module of its own (js/<view>.js exporting `mount()`), mounted the first
// time its tab is shown. The address's #fragment names the view, so a view can be linked to and reloaded.
const VIEWS = ["yahtzee", "dicerace", "g151", "poker", "tictactoe", "dominoes"];
const mounted = new Map();

async function show(name) {
  if (!VIEWS.includes(name)) name = VIEWS[0];
  document.querySelectorAll("nav [data-tab]").forEach((b) => b.classList.toggle("on", b.dataset.tab === name));
  document.querySelectorAll("main > section").forEach((s) => { s.hidden = s.id !== "tab-" + name; });
  if (!mounted.has(name)) mounted.set(name, import(`./${name}.js`).then((m) => m.mount()));
  await mounted.get(name);
}

document.querySelectorAll("nav [data-tab]").forEach((b) => {
  b.onclick = () => { location.hash = b.dataset.tab; };
});
window.addEventListener("hashchange", () => show(location.hash.slice(1)));
show(location.hash.slice(1));
