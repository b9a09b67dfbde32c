// dicetables in JavaScript: verified reads of the artifacts (zarrita) and the advisors built on them, for Node and
// the browser (docs/js.md).
//
//   import { openArtifacts } from "dicetables-js";       // any zarrita store: FetchStore (HTTP), FileSystemStore
//   const advisors = await openArtifacts(new FetchStore("https://example.org/artifacts"));
//   const yahtzee = await advisors.yahtzee("hasbro");
//   await yahtzee.decide([1, 3, 3, 5, 6], 2, { ones: 3, chance: 22 });
//   const race = await advisors.dicerace({ dice: 10, target: 100, mode: "sequential" });
//   await race.decide(37, 52);

import { Artifacts } from "./artifact.mjs";
import { DiceRaceAdvisor } from "./dicerace.mjs";
import { YahtzeeAdvisor } from "./yahtzee/advisor.mjs";

export { Artifact, ArtifactError, Artifacts, CheckedArray, NotBuiltError, TRUST_MODES } from "./artifact.mjs";
export { DiceRaceAdvisor, MODES as DICERACE_MODES } from "./dicerace.mjs";
export { YahtzeeAdvisor } from "./yahtzee/advisor.mjs";

/** The advisors of one artifacts directory, each opened once (by its arguments). */
export class Advisors {
  constructor(artifacts) {
    this.artifacts = artifacts;
    this.opened = new Map();
  }

  _once(key, open) {
    let found = this.opened.get(key);
    if (found === undefined) {
      found = open();
      this.opened.set(key, found);
      found.catch(() => this.opened.delete(key));
    }
    return found;
  }

  /** The expected-score Yahtzee advisor of rule set `rules` (e.g. "hasbro"); `policy: false` ignores a built policy
   * table. */
  yahtzee(rules = "hasbro", { policy = true } = {}) {
    return this._once(JSON.stringify(["yahtzee", rules, policy]),
      () => YahtzeeAdvisor.open(this.artifacts, rules, { policy }));
  }

  /** The dice race's advisor of one game: { dice, target, mode }. */
  dicerace({ dice = 10, target = 100, mode = "sequential" } = {}) {
    return this._once(JSON.stringify(["dicerace", dice, target, mode]),
      () => DiceRaceAdvisor.open(this.artifacts, { dice, target, mode }));
  }
}

/** The advisors over a zarrita store of an artifacts directory. Options: trust ("manifest", the default: every
 * artifact held to MANIFEST.json; or "artifact": each to its own metadata checksum), cacheBytes (decoded chunks
 * kept; default 256 MiB). */
export async function openArtifacts(store, options = {}) {
  return new Advisors(await Artifacts.open(store, options));
}
