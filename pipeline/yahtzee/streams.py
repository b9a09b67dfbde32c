"""Seeded dice streams, fixed per (game, stream, turn) and independent of every decision.

Each turn of each player reads its dice from a *destiny list* (the seed's "liste-destin"):
``N_DESTINY`` faces drawn from a counter-based generator keyed by ``(seed, key, stream, turn)``. The first
roll takes the first five faces; each reroll takes the next faces in order, one per rerolled die (die i
of the sorted dice, i increasing). What a player decides therefore never changes the dice of any later
turn, nor the opponent's dice: two players given the same stream see exactly the same list.

How a match maps its game index ``g`` onto keys and streams (:func:`game_streams`):

* ``independent``: key ``g``, player A reads stream 0, player B stream 1 (independent dice);
* ``coupled``: key ``g``, both players read stream 0 (the same dice);
* ``antithetic``: games ``2s`` and ``2s + 1`` form set ``s`` (key ``s``); A reads stream 0 then 1, B
  reads stream 1 then 0: the second game replays the first with the dice swapped;
* ``solo``: one player, key ``g``, stream 0.

Every value is a pure function of its inputs (splitmix64 hashing; no generator state carried between
games), so the same seed gives the same games on any number of threads or Dask workers. Faces are
exactly uniform: a byte is used only when below 252 (= 6 x 42), then taken modulo 6.
"""

from __future__ import annotations

import numpy as np

from pipeline.jit import njit

__all__ = ["MODES", "N_DESTINY", "sort_dice", "game_streams", "destiny", "destiny_at", "stream_base", "destiny_list",
           "rng_start",
           "rng_next"]

MODES = ("independent", "coupled", "antithetic", "solo")
MODE_CODES = {m: i for i, m in enumerate(MODES)}
N_DESTINY = 15  # 5 dice + at most 5 per reroll, two rerolls
_M64 = 0xFFFFFFFFFFFFFFFF
_GOLDEN = 0x9E3779B97F4A7C15
SALT_DICE, SALT_CHOICE = 0, 1  # a player's own random choices use a stream apart from its dice


@njit(cache=True, inline="always")
def sort_dice(dice):
    """Sort ``dice`` in place (insertion sort: five or six dice)."""
    for i in range(1, dice.shape[0]):
        x = dice[i]
        j = i - 1
        while j >= 0 and dice[j] > x:
            dice[j + 1] = dice[j]
            j -= 1
        dice[j + 1] = x


@njit(cache=True, inline="always")
def _mix(x):
    """splitmix64 finaliser: a bijective, well-mixed 64-bit hash."""
    z = x
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def stream_key(seed, key, stream, turn, salt):
    """The 64-bit key of one turn's stream: a hash chain over (seed, key, stream, turn, salt)."""
    return turn_key(stream_base(seed, key, stream), turn, salt)


@njit(cache=True, inline="always")
def stream_base(seed, key, stream):
    """The part of ``stream_key`` shared by every turn of one (seed, key, stream)."""
    h = _mix(np.uint64(seed) + np.uint64(_GOLDEN))
    h = _mix(h ^ np.uint64(key))
    return _mix(h + np.uint64(stream) * np.uint64(0x100000001B3))


@njit(cache=True, inline="always")
def turn_key(base, turn, salt):
    """``stream_key`` from its ``stream_base``."""
    return _mix(base ^ (np.uint64(turn) << np.uint64(8) | np.uint64(salt)))


@njit(cache=True)
def destiny(seed, key, stream, turn, out):
    """Fill ``out[:N_DESTINY]`` with the turn's destiny list (0-based faces, exactly uniform)."""
    destiny_at(stream_base(seed, key, stream), turn, out, 0, out.shape[0])


@njit(cache=True, inline="always")
def destiny_at(base, turn, out, start, n_faces):
    """``destiny`` from the stream's ``stream_base`` into ``out[start:start + n_faces]`` (the lane engine
    keeps every lane's list in one array: a slice per lane would cost a reference count update per turn,
    and the base once per game saves three of the hash rounds of each turn)."""
    h = turn_key(base, turn, SALT_DICE)
    n = 0
    counter = np.uint64(0)
    while n < n_faces:
        counter += np.uint64(1)
        z = _mix(h + counter * np.uint64(_GOLDEN))
        for _ in range(8):
            b = z & np.uint64(0xFF)
            z >>= np.uint64(8)
            if b < np.uint64(252) and n < n_faces:
                out[start + n] = np.int64(b % np.uint64(6))
                n += 1


@njit(cache=True)
def rng_start(seed, key, stream, turn, state):
    """Start a player's own random stream for one turn: ``state = [key, counter]`` (uint64)."""
    state[0] = stream_key(seed, key, stream, turn, SALT_CHOICE)
    state[1] = np.uint64(0)


@njit(cache=True)
def rng_next(state, n):
    """A uniform integer in 0..n-1 from the stream ``state`` (rejection keeps it exactly uniform)."""
    limit = np.uint64(_M64) - (np.uint64(_M64) % np.uint64(n))
    while True:
        state[1] += np.uint64(1)
        z = _mix(state[0] + state[1] * np.uint64(_GOLDEN))
        if z < limit:
            return np.int64(z % np.uint64(n))


@njit(cache=True, inline="always")
def game_streams(mode, g):
    """(key, stream of player A, stream of player B) of game ``g`` in match mode ``mode`` (a MODE_CODES value)."""
    if mode == 2:  # antithetic: set g // 2, dice swapped in its second game
        half = g % 2
        return g // 2, half, 1 - half
    if mode == 1:  # coupled
        return g, 0, 0
    return g, 0, 1  # independent (and solo, where B does not play)


def destiny_list(seed: int, key: int, stream: int, turn: int) -> np.ndarray:
    """The turn's destiny list as pips 1..6 (int64, length N_DESTINY): what the engines roll."""
    out = np.empty(N_DESTINY, dtype=np.int64)
    destiny(seed, key, stream, turn, out)
    return out + 1
