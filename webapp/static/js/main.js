// The page: one tab per registered game, in the order of GET /api/games (webapp/routes/games.py; no list of games
// here or in index.html). A game with a view of its own (`view`: js/<game>.js) shows it, every other game the view
// for every game (js/game.js); each view exports `mount(section, game)` and is mounted the first time its tab is
// shown. The address's #fragment names the tab, so a view can be linked to and reloaded.
import {$, api} from "./api.js";

let games = [];
const mounted = new Map();

async function show(name) {
  if (!games.some((g) => g.name === name)) name = games[0].name;
  document.querySelectorAll("nav [data-tab]").forEach((b) => {
    const on = b.dataset.tab === name;
    b.classList.toggle("on", on);
    if (on) b.setAttribute("aria-current", "page"); else b.removeAttribute("aria-current");
  });
  document.querySelectorAll("main > section").forEach((s) => { s.hidden = s.id !== "tab-" + name; });
  if (!mounted.has(name)) {
    const game = games.find((g) => g.name === name), section = $("tab-" + name);
    // data-mounted on the section once its module is loaded and mounted (its buttons work from then on)
    mounted.set(name, import(game.view ? `./${name}.js` : "./game.js").then((m) => m.mount(section, game))
      .then(() => { section.dataset.mounted = "true"; }));
  }
  await mounted.get(name);
}

// A view's (or a panel's) main button: the shown one marked data-main, else its first shown button labelled
// "Advise" (a part of the view that is not shown, such as a panel mounted in a hidden part of its tab, has none).
export function mainButton(section) {
  if (!section) return null;
  const shown = [...section.querySelectorAll("button")].filter((b) => b.getClientRects().length);
  return shown.find((b) => b.matches("[data-main]")) ||
    shown.find((b) => b.textContent.trim().toLowerCase() === "advise") || null;
}

// Enter in any input or select of a view runs the main button of its panel, else of its view (as a form's submit
// would), but never that of the view for every game mounted in another part of the view.
document.querySelector("main").addEventListener("keydown", (ev) => {
  if (ev.key !== "Enter" || !ev.target.matches("input, select")) return;
  const view = mainButton(ev.target.closest("section"));
  const button = mainButton(ev.target.closest(".panel")) || (view?.closest(".gv-root:not(section)") ? null : view);
  if (button && !button.disabled) { ev.preventDefault(); button.click(); }
});

async function start() {
  games = (await api("games")).games;
  const nav = document.querySelector("nav"), link = nav.querySelector("a");
  for (const g of games) {
    const b = Object.assign(document.createElement("button"), {textContent: g.title, title: g.summary});
    b.dataset.tab = g.name;
    b.onclick = () => { location.hash = g.name; };
    nav.insertBefore(b, link);
    const section = Object.assign(document.createElement("section"), {id: "tab-" + g.name, hidden: true});
    document.querySelector("main").append(section);
  }
  window.addEventListener("hashchange", () => show(location.hash.slice(1)));
  await show(location.hash.slice(1));
}
start().catch((e) => { $("page-error").textContent = e.message; });
