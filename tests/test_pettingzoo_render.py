"""`rgb_array` rendering: the table's drawing (the browser's and the rulebook's SVG)
rasterised, every frame of one game the same shape, and a move changes the picture."""

from __future__ import annotations

import itertools

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from interpreter.adapters.pettingzoo import env  # noqa: E402
from interpreter.adapters.pettingzoo_render import rasterise, svg_size  # noqa: E402


def test_frames_keep_one_shape_and_show_each_move() -> None:
    environment = env("tic-tac-toe", render_mode="rgb_array")
    environment.reset(seed=1)
    frames = [environment.render()]
    for notation in ("b2", "a1", "c3"):
        environment.step(environment.action_of(notation))
        frames.append(environment.render())
    shape = frames[0].shape
    assert shape[1] == 720 and shape[2] == 3 and shape[0] > 100
    for before, after in itertools.pairwise(frames):
        assert after.shape == shape and after.dtype == np.uint8
        changed = (before != after).any(axis=2)
        assert changed.sum() > 200  # a mark drawn (and the turn's words)
    assert (frames[0] < 128).any() and (frames[0] == 255).any()  # ink on white


def test_a_taller_position_is_scaled_into_the_frame() -> None:
    tall = ('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="400" '
            'viewBox="0 0 100 400"><rect width="100" height="400" fill="#000000"/></svg>')
    assert svg_size(tall) == (100.0, 400.0)
    frame = rasterise(tall, 200, 200)
    assert frame.shape == (200, 200, 3)
    dark = np.flatnonzero((frame[:, :, 0] < 128).any(axis=0))
    assert 48 <= len(dark) <= 52 and 73 <= dark.min() <= 77  # 50 wide, centred
    assert (frame[:, :40] == 255).all()  # white around it
