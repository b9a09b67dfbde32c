"""Dominoes through the protocol: the deal and the draws as chance (in law the deals of a shuffled set), what each
seat observes, the advisor's action values equal to ``lookup.dominoes.move_values`` / ``decide`` / ``value`` on the
history a player would type (random standard games), and, in the instance of complete information, equal to the
exact predictive player of lookup.opponents (Fractions, its own search of the game)."""

from __future__ import annotations

import random
import re
from collections import Counter
from fractions import Fraction

import pytest

from lookup.dominoes import MODEL_NAMES, decide, move_values, value
from lookup.dominoes import engine as E
from lookup.dominoes.game import Dominoes, DominoesGame, DomState
from lookup.dominoes.rules import move_name, parse_tile, tile_name
from lookup.games import get_spec, open_setup
from lookup.opponents import MODELS, Player
from lookup.protocol import CHANCE
from lookup.simulate import draw

SETTINGS = {"depth": 2, "samples": 3, "max_exact": 50, "endgame": 0, "budget": 300, "seed": 5}


def _setup(**given) -> dict:
    return {"player": "realistic", "models": ["random", "strong"], "max_pip": 6, "hand": 7, **SETTINGS, **given}


def test_setups_are_the_experiments_players_on_two_instances_whole_and_seen_from_each_seat(built):
    found = get_spec("dominoes").setups(built)
    players = [("predictive", ("random",)), ("predictive", ("strong",)), ("realistic", ("random", "strong"))]
    assert [((s["player"], tuple(s["models"])), s["you"], (s["max_pip"], s["hand"])) for s in found] == \
        [(p, you, size) for p in players for you in (None, 0, 1) for size in ((2, 3), (6, 7))]
    assert all(all(s[k] == v for k, v in SETTINGS.items()) for s in found)


def test_the_deal_is_every_pair_of_hands_alike():
    """Dealt tile by tile, double-two with two tiles each: every (hand, hand) pair has probability 1/90, the
    deals of ``Dominoes.deals`` (a shuffled set: each hand of the other tiles equally likely)."""
    game = DominoesGame(2, 2)
    law: Counter = Counter()

    def walk(state: DomState, p: Fraction) -> None:
        if state.position is not None:
            law[state.position.hands] += p
            return
        for tile, q in game.chance_outcomes(state):
            walk(game.apply(state, tile), p * q)

    walk(game.initial_state(), Fraction(1))
    assert len(law) == 90 and set(law.values()) == {Fraction(1, 90)}
    others: Counter = Counter()
    for deal, p in Dominoes(2, 2).deals(Dominoes(2, 2).deal(0), 0):
        others[deal.hands[1]] += p
    assert set(others.values()) == {Fraction(1, 6)} and len(others) == 6


def test_draws_are_uniform_over_the_boneyard_and_hidden():
    game = DominoesGame()
    rng = random.Random(2)
    for _ in range(20):
        state = game.initial_state()
        while game.to_move(state) == CHANCE:
            state = game.apply(state, draw(game.chance_outcomes(state), rng))
        while not game.is_terminal(state):
            if state.drawing:
                outcomes = game.chance_outcomes(state)
                assert [t for t, _ in outcomes] == list(state.position.boneyard)
                assert {p for _, p in outcomes} == {Fraction(1, len(state.position.boneyard))}
                other = 1 - state.position.to_move
                after = {game.observation(game.apply(state, t), other) for t, _ in outcomes}
                assert len(after) == 1  # the other seat sees that a tile was drawn, not which
                state = game.apply(state, draw(outcomes, rng))
                continue
            mover = state.position.to_move
            seen = game.observation(state, 1 - mover)
            assert seen == state or not state.position.boneyard or seen != game.observation(state, mover)
            state = game.apply(state, rng.choice(game.legal_actions(state)))
        assert game.observation(state, 0) == state  # the end shows every hand


def test_action_values_are_the_searchs_answers_on_the_typed_history():
    """Random standard games through the protocol: at each decision, the history as the player would type it
    (its own draws with the tile) gives ``move_values``, ``decide`` and ``value`` equal to the advisor's."""
    rng = random.Random(11)
    for player, models in (("realistic", ["random", "strong"]), ("predictive", ["greedy"]),
                           ("bayesian", list(MODEL_NAMES))):
        setup = _setup(player=player, models=models)
        advisor = open_setup("dominoes", setup, None)
        game = advisor.game
        state, typed, checked = game.initial_state(), {0: [], 1: []}, 0
        while not game.is_terminal(state):
            if game.to_move(state) == CHANCE:
                tile = draw(game.chance_outcomes(state), rng)
                if state.drawing:
                    me = state.position.to_move
                    typed[me].append(f"draw:{tile_name(tile)}")
                    typed[1 - me].append("draw")
                state = game.apply(state, tile)
                continue
            me, pos = state.position.to_move, state.position
            values = advisor.action_values(state)
            if None not in values.values():
                dealt = [tile_name(t) for t in range(E.N_TILES) if (pos.hands[me] | _placed(pos, me)) >> t & 1
                         and t not in pos.drew[me]]
                options = {"player": player, "model": setup["models"][0], "models": setup["models"], **SETTINGS}
                want = move_values(dealt, typed[me], me, **options)
                assert [(move_name(m), v) for m, v in values.items()] == want
                assert move_name(advisor.decide(state)) == decide(dealt, typed[me], me, **options)
                assert advisor.value(state, me) == value(dealt, typed[me], me, **options)
                assert advisor.value(state, 1 - me) is None
                checked += 1
            action = advisor.decide(state) if rng.random() < 0.7 else rng.choice(game.legal_actions(state))
            if action != E.DRAW:
                for seat in (0, 1):
                    typed[seat].append(move_name(action))
            state = game.apply(state, action)
        assert checked >= 5


def _placed(pos, seat: int) -> int:
    return sum(1 << (m >> 1) for p, m in pos.log if p == seat and m < E.DRAW)


@pytest.mark.parametrize("model", ["random", "first", "strong", "greedy"])
def test_complete_information_values_are_the_exact_predictive_players(model):
    """Double-two with every tile dealt: after the deal both hands are known, and the search (to the end: the
    boneyard is empty) is the expectimax against the model, which the exact predictive player of
    lookup.opponents computes in Fractions by its own recursion over the game."""
    advisor = open_setup("dominoes", _setup(player="predictive", models=[model], max_pip=2, hand=3), None)
    game, rng = advisor.game, random.Random(model)
    rules, checked = game.rules, 0
    for _ in range(6):
        state = game.initial_state()
        while game.to_move(state) == CHANCE:
            state = game.apply(state, draw(game.chance_outcomes(state), rng))
        seat = rng.randrange(2)  # the seat checked; the other plays the model
        player = Player("predictive", rules, seat, [MODELS[model]])
        belief = player.initial_belief(state.position)
        while not game.is_terminal(state):
            pos = state.position
            assert game.observation(state, 0) == game.observation(state, 1) == state
            if pos.to_move == seat:
                exact = player.move_values(pos, belief)
                got = advisor.action_values(state)
                if None not in got.values():
                    assert list(got) == [m for m, _ in exact]
                    assert all(got[m] == pytest.approx(float(v), abs=1e-12) for m, v in exact)
                    checked += 1
                move = rng.choice(game.legal_actions(state))
            else:
                move = draw(MODELS[model].distribution(rules, pos), rng)
            belief = player.observe(belief, pos, move)
            state = game.apply(state, move)
    assert checked >= 6


def test_positions_in_json_and_words():
    game, rng = DominoesGame(), random.Random(5)
    state = game.initial_state()
    for _ in range(5):
        state = game.apply(state, draw(game.chance_outcomes(state), rng))
    assert game.parse_state(game.state_json(state)) == state and "5 of 14" in game.state_text(state)
    while not game.is_terminal(state):
        options = game.options(state)
        state = game.apply(state, draw(game.chance_outcomes(state), rng) if game.to_move(state) == CHANCE
                           else rng.choice(options))
        assert game.parse_state(game.state_json(state)) == state
    hands = game.state_json(state)["hands"]
    for junk in ({"hands": hands[:1]}, {"hands": [hands[0], hands[0]]}, {"hands": hands, "moves": ["7-7"]},
                 {"dealt": ["3-5", "3-5"]}, {"hands": hands, "drawing": 1}, {"dealt": "3-5"}):
        with pytest.raises(ValueError, match=r"\S"):
            game.parse_state(junk)
    start = DominoesGame().initial_state()
    with pytest.raises(ValueError, match="not legal"):
        DominoesGame().apply(start, 99)


def test_a_seat_is_shown_its_own_tiles_only_until_the_end():
    """Two deals that give player 1 the same tiles and player 2 different ones are shown to player 1 in the same
    words, event by event, up to and including player 1's opening move; no text player 1 is shown names a tile of
    the other hand while the game goes on; at the end it is shown everything."""
    game, rng = DominoesGame(), random.Random(8)
    tiles = list(game.rules.tiles)
    rng.shuffle(tiles)
    mine, rest = tiles[:7], tiles[7:]
    games = [mine + rest[:7], mine + rest[7:14]]
    shown = []
    for deal in games:
        state, words = game.initial_state(), []
        for t in deal:
            words.append(game.action_text_for(state, t, 0))
            state = game.apply(state, t)
        words.append(game.state_text_for(state, 0))
        opening = game.legal_actions(state)[0]
        words.append(game.action_text_for(state, opening, 0))
        words.append(game.state_text_for(game.apply(state, opening), 0))
        shown.append(words)
    assert shown[0] == shown[1] and shown[0][7:14] == ["deals a tile to player 2"] * 7
    assert [w.split()[1] for w in shown[0][:7]] == [tile_name(t) for t in mine]
    # A whole game: nothing player 1 is shown names a tile player 2 holds, until the end.
    state = game.initial_state()
    for t in games[0]:
        state = game.apply(state, t)
    while not game.is_terminal(state):
        other = {tile_name(t) for t in game.rules.tiles if state.position.hands[1] >> t & 1}
        named = {tile_name(parse_tile(w)) for w in re.findall(r"\b\d-\d\b", game.state_text_for(state, 0))}
        assert other and not named & other
        if state.drawing and state.position.to_move == 1:
            assert {game.action_text_for(state, t, 0) for t in game.options(state)} == {"player 2 draws a tile"}
        action = draw(game.chance_outcomes(state), rng) if game.to_move(state) == CHANCE else \
            rng.choice(game.legal_actions(state))
        state = game.apply(state, action)
    assert game.state_text_for(state, 0) == game.state_text(state) and "player 2: " in game.state_text(state)
