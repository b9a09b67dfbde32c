// The page: one view per game, each a module of its own (js/<view>.js exporting `mount()`), mounted the first
// time its tab is shown. The address's #fragment names the view, so a view can be linked to and reloaded.
// The views are the nav's buttons (index.html): a view is named once.
const VIEWS = [...document.querySelectorAll("nav [data-tab]")].map((b) => b.dataset.tab);
const mounted = new Map();

async function show(name) {
  if (!VIEWS.includes(name)) name = VIEWS[0];
  document.querySelectorAll("nav [data-tab]").forEach((b) => {
    const on = b.dataset.tab === name;
    b.classList.toggle("on", on);
    if (on) b.setAttribute("aria-current", "page"); else b.removeAttribute("aria-current");
  });
  document.querySelectorAll("main > section").forEach((s) => { s.hidden = s.id !== "tab-" + name; });
  if (!mounted.has(name)) {
    // data-mounted on the section once its module is loaded and mounted (its buttons work from then on)
    mounted.set(name, import(`./${name}.js`).then((m) => m.mount())
      .then(() => { document.getElementById("tab-" + name).dataset.mounted = "true"; }));
  }
  await mounted.get(name);
}

// A view's main button: the one marked data-main, else its first button labelled "Advise".
export function mainButton(section) {
  return section.querySelector("button[data-main]") ||
    [...section.querySelectorAll("button")].find((b) => b.textContent.trim().toLowerCase() === "advise") || null;
}

// Enter in any input or select of a view runs that view's main button (as a form's submit would).
document.querySelector("main").addEventListener("keydown", (ev) => {
  if (ev.key !== "Enter" || !ev.target.matches("input, select")) return;
  const button = mainButton(ev.target.closest("section"));
  if (button && !button.disabled) { ev.preventDefault(); button.click(); }
});

document.querySelectorAll("nav [data-tab]").forEach((b) => {
  b.onclick = () => { location.hash = b.dataset.tab; };
});
window.addEventListener("hashchange", () => show(location.hash.slice(1)));
show(location.hash.slice(1));
