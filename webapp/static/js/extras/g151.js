// 151's map in the view of every game (js/game.js): roll on or bank over banked points and turn total, for the
// player to move against the other's banked points (GET /api/g151/heatmap), the position circled.
import {api} from "../api.js";
import {heatmap} from "../heat.js";

const ROLL = "#3a9a5b", BANK = "#b8bec7", NONE = "#ffffff";
const maps = new Map();  // the query -> the map's answer, or the error that says why there is none

export async function draw(box, answer, {setup}) {
  const {banked, to_move: me, turn_total: turn} = answer.state;
  const other = banked.length > 1 ? banked[1 - me] : null;
  const query = `g151/heatmap?target=${setup.target}&rules=${setup.rules}` + (other === null ? "" : `&other_banked=${other}`);
  if (!maps.has(query)) maps.set(query, api(query).catch((e) => e));
  const hm = await maps.get(query);
  if (hm instanceof Error) { box.innerHTML = `<p class="legend">No map: ${hm.message}</p>`; return; }
  if (!box.querySelector("canvas")) {
    box.innerHTML = `<div class="maps"><figure><figcaption></figcaption><canvas role="img" aria-label="roll or bank map">
      </canvas></figure></div>`;
  }
  box.querySelector("figcaption").textContent = "Roll on or bank, by banked points and turn total" +
    (other === null ? " (alone: fewest turns)" : ` (the other player has ${other} banked)`);
  const unit = hm.unit;
  heatmap(box.querySelector("canvas"), hm.roll, {
    x: {label: "turn total (points)", start: 0, step: unit}, y: {label: "banked (points)", start: 0, step: unit},
    color: (v) => (v === null ? NONE : v ? ROLL : BANK), scale: {items: [[ROLL, "roll on"], [BANK, "bank"], [NONE, "past target"]]},
    mark: answer.over ? null : [banked[me] / unit, turn / unit],
    describe: (v, i, j) => `banked ${i * unit}, turn total ${j * unit}: ${v === null ? "past the target" : v ? "roll on" : "bank"}`});
}
