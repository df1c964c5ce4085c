"""A weights file that cannot be used is refused with one error naming what was expected; pickles never load."""

from __future__ import annotations

import dataclasses
import json
import pickle
from pathlib import Path

import numpy as np
import pytest

import cardtable
from cardtable.bots import make_bot
from cardtable.bots.learned import WeightsError, load_weights, save_weights

from .helpers import random_net, write_random_net


def test_a_saved_net_loads_back_identical(tmp_path: Path) -> None:
    net, manifest = random_net("crazy_eights", {"players": 4})
    save_weights(tmp_path / "w.npz", net, manifest)
    loaded, again = load_weights(tmp_path / "w.npz", game="crazy_eights")
    assert again == manifest
    x = np.arange(182, dtype=np.uint8) % 3
    assert np.array_equal(loaded.values(x), net.values(x))


def test_weights_for_another_game_are_refused(tmp_path: Path) -> None:
    path = write_random_net(tmp_path / "w.npz", "durak", {"players": 2})
    with pytest.raises(WeightsError, match="these weights are for durak, not wizard"):
        load_weights(path, game="wizard")


def test_weights_of_another_encoding_version_are_refused(tmp_path: Path) -> None:
    net, manifest = random_net("kaiser", {})
    save_weights(tmp_path / "w.npz", net, dataclasses.replace(manifest, encoding_version=manifest.encoding_version + 1))
    with pytest.raises(WeightsError, match=r"encoding version 2; this cardtable encodes version 1 \(train again\)"):
        load_weights(tmp_path / "w.npz")


def test_weights_of_another_format_are_refused(tmp_path: Path) -> None:
    net, manifest = random_net("kaiser", {})
    save_weights(tmp_path / "w.npz", net, dataclasses.replace(manifest, format=99))
    with pytest.raises(WeightsError, match="weights format 99, expected 1"):
        load_weights(tmp_path / "w.npz")


def test_weights_for_another_player_count_are_refused_by_name(tmp_path: Path) -> None:
    path = write_random_net(tmp_path / "w.npz", "crazy_eights", {"players": 4})
    game = cardtable.load_game("crazy_eights")
    with pytest.raises(ValueError, match=r"trained for crazy_eights with .*players=4.*this table plays .*players=3.*"
                                         r"differs in players"):
        make_bot(game, f"learned:weights={path}", options=game.options(players=3))
    make_bot(game, f"learned:weights={path}", options=game.options(players=4))  # the one it was trained for


def test_a_truncated_file_is_refused(tmp_path: Path) -> None:
    path = write_random_net(tmp_path / "w.npz", "wizard", {})
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(WeightsError, match=r"not a weights file .* corrupt or truncated"):
        load_weights(path)


def test_a_corrupt_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "w.npz"
    path.write_bytes(b"PK\x03\x04" + bytes(range(256)) * 4)
    with pytest.raises(WeightsError, match="corrupt or truncated"):
        load_weights(path)


def test_a_pickled_file_is_refused_without_unpickling(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    class Boom:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            return (print, ("unpickled!",))

    path = tmp_path / "w.npz"
    np.savez(path, manifest=np.frombuffer(b"{}", np.uint8), w0=np.array([Boom()], dtype=object))
    with pytest.raises(WeightsError, match="refused: it holds pickled objects"):
        load_weights(path)
    assert "unpickled!" not in capsys.readouterr().out
    plain = tmp_path / "plain.pkl"
    plain.write_bytes(pickle.dumps({"w0": [1.0]}))
    with pytest.raises(WeightsError, match="refused: it holds pickled objects"):
        load_weights(plain)


def test_a_missing_file_says_so(tmp_path: Path) -> None:
    with pytest.raises(WeightsError, match="no such weights file"):
        load_weights(tmp_path / "nothing.npz")


def test_arrays_that_do_not_chain_are_refused(tmp_path: Path) -> None:
    net, manifest = random_net("mus", {})
    save_weights(tmp_path / "w.npz", net, dataclasses.replace(manifest, layers=(585, 17, 56)))
    with pytest.raises(WeightsError, match=r"array w0 should be floats of shape \(585, 17\)"):
        load_weights(tmp_path / "w.npz")


def test_a_net_with_nan_is_refused(tmp_path: Path) -> None:
    net, manifest = random_net("durak", {"players": 2})
    net.layers[0][0][0, 0] = np.nan
    save_weights(tmp_path / "w.npz", net, manifest)
    with pytest.raises(WeightsError, match="array w0 holds a NaN"):
        load_weights(tmp_path / "w.npz")


def test_an_unreadable_manifest_is_refused(tmp_path: Path) -> None:
    net, _ = random_net("durak", {"players": 2})
    np.savez(tmp_path / "w.npz", manifest=np.frombuffer(b"{not json", np.uint8), **net.arrays())
    with pytest.raises(WeightsError, match="its manifest is unreadable"):
        load_weights(tmp_path / "w.npz")
    np.savez(tmp_path / "v.npz", **net.arrays())
    with pytest.raises(WeightsError, match="no manifest array"):
        load_weights(tmp_path / "v.npz")


def test_the_manifest_says_what_reproduces_the_weights(tmp_path: Path) -> None:
    net, manifest = random_net("wizard", {})
    manifest = dataclasses.replace(manifest, command="cardtable train wizard --epochs 3 --seed 1", seed=1)
    save_weights(tmp_path / "w.npz", net, manifest)
    with np.load(tmp_path / "w.npz", allow_pickle=False) as data:
        stored = json.loads(data["manifest"].tobytes())
    assert stored["command"] == "cardtable train wizard --epochs 3 --seed 1"
    assert stored["game"] == "wizard" and stored["options"]["players"] == 4
