// One golden situation answered by the JavaScript advisor and compared with Python's answers (tests/js_golden.py
// writes them): a list of problems, empty when every answer is equal. Plain ES module (no Node import): the Node
// test (golden.test.mjs) and the browser test (tests/web/test_js_advisor.py) both use it.
//
// Equal means the same JSON: every key, every list in its order, every float the same double (JSON.stringify of
// values that came from Python's JSON, read back by JavaScript, is the same text only for the same doubles).

async function outcome(promise) {
  try {
    return { value: await promise };
  } catch (e) {
    return { error: e };
  }
}

const json = (x) => JSON.stringify(x);

/** The problems of situation `rec` (one line of a golden file) answered with `advisors` (an Advisors). */
export async function check(advisors, rec) {
  const problems = [];
  const expect = async (what, promise, want, wantError) => {
    const got = await outcome(promise);
    if (wantError !== undefined) {
      if (got.error === undefined) problems.push(`${what}: Python refused (${wantError}), JavaScript answered ${json(got.value)}`);
    } else if (got.error !== undefined) {
      problems.push(`${what}: JavaScript refused (${got.error.stack ?? got.error}), Python answered ${json(want)}`);
    } else if (json(got.value) !== json(want)) {
      problems.push(`${what}: JavaScript answered\n    ${json(got.value)}\n  Python answered\n    ${json(want)}`);
    }
  };
  if (rec.t === "yahtzee") {
    const y = await advisors.yahtzee(rec.rules);
    await expect("decide", y.decide(rec.dice, rec.rerolls, rec.sheet), rec.decide, rec.error);
    await expect("explain", y.explain(rec.dice, rec.rerolls, rec.sheet), rec.explain, rec.error);
    await expect("value", y.value(rec.sheet), rec.value, rec.value_error);
    if (y.policy !== null) { // the same actions from the turn computed from the values alone
      const v = await advisors.yahtzee(rec.rules, { policy: false });
      await expect("decide (values only)", v.decide(rec.dice, rec.rerolls, rec.sheet), rec.decide, rec.error);
    }
  } else if (rec.t === "dicerace") {
    const race = await outcome(advisors.dicerace({ dice: rec.dice, target: rec.target, mode: rec.mode }));
    if (race.error !== undefined) {
      if (rec.error === undefined) problems.push(`open: JavaScript refused (${race.error.message}), Python answered`);
      return problems;
    }
    const random = () => rec.u;
    await expect("decide", race.value.decide(rec.my, rec.other, { random }), rec.decide, rec.error);
    await expect("strategy", race.value.strategy(rec.my, rec.other), rec.strategy, rec.error);
  } else {
    problems.push(`unknown situation kind ${rec.t}`);
  }
  return problems;
}
