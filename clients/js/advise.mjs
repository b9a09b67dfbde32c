#!/usr/bin/env node
// The JavaScript advisor from the command line (Node), answers as JSON on stdout; a refusal is one line
// "error: ..." on stderr and exit status 1.
//
//   node advise.mjs [--artifacts DIR] [--trust manifest|artifact] yahtzee RULES decide DICE REROLLS SHEET
//   node advise.mjs ... yahtzee RULES explain DICE REROLLS SHEET
//   node advise.mjs ... yahtzee RULES value SHEET
//   node advise.mjs ... dicerace DICE TARGET MODE decide|strategy MY OTHER
//
// DICE and SHEET are JSON: '[1,3,3,5,6]' and '{"ones": 3, "chance": 22}' (or a list in sheet order). DIR defaults
// to $DICETABLES_ARTIFACTS, else ./artifacts.
//
//   $ node advise.mjs --artifacts ../../artifacts yahtzee hasbro decide '[1,3,3,5,6]' 2 '{}'

import { openDirectory } from "./src/node.mjs";

async function main(argv) {
  const options = { artifacts: process.env.DICETABLES_ARTIFACTS ?? "artifacts", trust: "manifest" };
  while (argv[0]?.startsWith("--")) {
    const [flag, value] = argv.splice(0, 2);
    if (flag === "--artifacts") options.artifacts = value;
    else if (flag === "--trust") options.trust = value;
    else throw new Error(`unknown option ${flag}`);
  }
  const advisors = await openDirectory(options.artifacts, { trust: options.trust });
  const [game, ...rest] = argv;
  if (game === "yahtzee") {
    const [rules, verb, ...args] = rest;
    const y = await advisors.yahtzee(rules);
    if (verb === "value") return y.value(JSON.parse(args[0]));
    if (verb === "decide" || verb === "explain") return y[verb](JSON.parse(args[0]), Number(args[1]), JSON.parse(args[2]));
    throw new Error(`yahtzee: decide, explain or value, not ${verb}`);
  }
  if (game === "dicerace") {
    const [dice, target, mode, verb, my, other] = rest;
    const race = await advisors.dicerace({ dice: Number(dice), target: Number(target), mode });
    if (verb === "decide" || verb === "strategy") return race[verb](Number(my), Number(other));
    throw new Error(`dicerace: decide or strategy, not ${verb}`);
  }
  throw new Error("usage: advise.mjs [--artifacts DIR] [--trust MODE] yahtzee RULES decide|explain|value ... | " +
                  "dicerace DICE TARGET MODE decide|strategy MY OTHER");
}

main(process.argv.slice(2)).then(
  (answer) => console.log(JSON.stringify(answer)),
  (e) => {
    console.error(`error: ${e.message}`);
    process.exit(1);
  },
);
