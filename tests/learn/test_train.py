"""Training: the numpy twin equals JAX, a short seeded run learns, a resumed run is the run left alone, bad input."""

from __future__ import annotations

import errno
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from cardtable.bots.learned import load_weights, shipped
from cardtable.cli import app
from cardtable.learn import model, run
from cardtable.learn.dmc import Trainer
from cardtable.learn.spec import DEFAULTS

FIXTURES = Path(__file__).parent / "fixtures" / "encodings.npz"
GAMES = list(DEFAULTS)
TINY = {"envs": 16, "hidden": (16,), "games_per_env": 1, "eval_games": 32, "batch": 64}
cli = CliRunner()


@pytest.mark.parametrize("name", GAMES)
def test_the_numpy_forward_pass_equals_jax_on_saved_inputs(name: str) -> None:
    with np.load(FIXTURES) as data:
        x = data[name]
    rng = np.random.default_rng(1)
    scale = rng.uniform(0.05, 1, x.shape[1]).astype(np.float32)
    params = model.init_params((x.shape[1], 64, 32, 70), scale, seed=4)
    params["b0"] = params["b0"] + 0.1  # non-zero biases, as after training
    expected = np.asarray(model.forward(params, x))
    got = model.to_net(params).values(x)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
    assert np.abs(expected).max() > 0.01  # a forward pass that computed something


@pytest.mark.parametrize("name", GAMES)
def test_the_shipped_nets_give_the_same_values_in_numpy_and_jax(name: str) -> None:
    with np.load(FIXTURES) as data:
        x, mask = data[name], data[f"{name}.mask"]
    for path, manifest in shipped(name):
        if manifest.layers[0] != x.shape[1]:
            continue  # trained for other options (another player count): other encodings
        net, _ = load_weights(path)
        np.testing.assert_allclose(net.values(x), np.asarray(model.forward(model.from_net(net), x)),
                                   rtol=1e-4, atol=1e-4)
        chosen = np.argmax(np.where(mask.astype(bool), net.values(x), -np.inf), axis=1)
        assert mask[np.arange(len(x)), chosen].all()


def test_a_short_seeded_run_beats_the_untrained_net_against_random() -> None:
    spec = DEFAULTS["durak"].with_(opponent="random", envs=64, hidden=(64,), games_per_env=2, eval_games=500,
                                   self_play=0.0, batch=128, learning_rate=1e-3)
    trainer = Trainer(spec, seed=3)
    before = trainer.evaluate()
    for _ in range(12):
        trainer.epoch()
    after = trainer.evaluate()
    assert trainer.progress.updates > 500
    assert after.rate >= before.rate + 0.15, (before.rate, after.rate)
    assert after.interval()[0] > before.interval()[1]


def test_a_resumed_run_ends_with_the_weights_of_a_run_left_alone(tmp_path: Path) -> None:
    spec = DEFAULTS["crazy_eights"].with_(**TINY)
    alone = run.train(spec, 5, tmp_path / "alone", epochs=3, eval_every=2)
    run.train(spec, 5, tmp_path / "stopped", epochs=1, eval_every=2)
    resumed = run.train(spec, 5, tmp_path / "stopped", epochs=3, eval_every=2, resume=True)
    a, _ = load_weights(alone.weights)
    b, manifest = load_weights(resumed.weights)
    for (wa, ba), (wb, bb) in zip(a.layers, b.layers, strict=True):
        assert np.array_equal(wa, wb) and np.array_equal(ba, bb)
    assert manifest.command == ("cardtable train crazy_eights --epochs 3 --seed 5 --players 4 --set hidden=16 "
                                "--set envs=16 --set games_per_env=1 --set batch=64 --set eval_games=32")
    assert manifest.trained["epochs"] == 3
    curve = (tmp_path / "stopped" / "curve.csv").read_text().splitlines()
    assert curve[0].startswith("epoch,samples,updates") and [r.split(",")[0] for r in curve[1:]] == ["0", "2", "3"]
    assert (tmp_path / "stopped" / "curve.png").stat().st_size > 1000


def test_a_full_disk_keeps_the_last_good_checkpoint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = DEFAULTS["durak"].with_(**TINY)
    out = tmp_path / "run"
    run.train(spec, 2, out, epochs=1)
    good = (out / run.CHECKPOINT).read_bytes()

    def full(self: Trainer, path: Path) -> None:
        path.with_name(path.name + ".tmp").write_bytes(b"half")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Trainer, "save_checkpoint", full)
    with pytest.raises(run.RunError, match=r"No space left on device.*the last good one is kept"):
        run.train(spec, 2, out, epochs=2, resume=True)
    assert (out / run.CHECKPOINT).read_bytes() == good
    assert not (out / (run.CHECKPOINT + ".tmp")).exists()


def _error(args: list[str]) -> str:
    result = cli.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


def test_train_refuses_bad_input_with_one_line(tmp_path: Path) -> None:
    assert "no game named 'chess'" in _error(["train", "chess", "--epochs", "1", "--out", str(tmp_path / "a")])
    assert "say how long" in _error(["train", "durak", "--out", str(tmp_path / "b")])
    assert "--epochs must be at least 1" in _error(["train", "durak", "--epochs", "0", "--out", str(tmp_path / "c")])
    assert "betting.max_bet" in _error(["train", "mus", "--epochs", "1", "-o", "betting.max_bet=600",
                                        "--out", str(tmp_path / "d")])
    assert "--opponent 'endgame'" in _error(["train", "durak", "--epochs", "1", "--opponent", "endgame",
                                             "--out", str(tmp_path / "e")])
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert "cannot write in" in _error(["train", "durak", "--epochs", "1", "--out", str(blocker / "out")])
    assert "no checkpoint" in _error(["train", "durak", "--epochs", "1", "--resume", "--out", str(tmp_path / "f")])
    for letter in "abcdef":
        assert not (tmp_path / letter / run.CHECKPOINT).exists()


def test_train_will_not_overwrite_another_run(tmp_path: Path) -> None:
    spec = DEFAULTS["durak"].with_(**TINY)
    run.train(spec, 1, tmp_path, epochs=1)
    before = (tmp_path / run.CHECKPOINT).read_bytes()
    assert "already holds a run" in _error(["train", "durak", "--epochs", "1", "--out", str(tmp_path)])
    assert (tmp_path / run.CHECKPOINT).read_bytes() == before


def test_train_by_the_command_writes_weights_the_learned_bot_plays(tmp_path: Path) -> None:
    result = cli.invoke(app, ["train", "durak", "--epochs", "1", "--out", str(tmp_path), "--seed", "4"])
    assert result.exit_code == 0, result.output
    weights = tmp_path / "durak-2p.npz"
    _, manifest = load_weights(weights, game="durak")
    assert manifest.command == "cardtable train durak --epochs 1 --seed 4 --players 2"
    assert manifest.strength["games"] > 0 and manifest.trained["epochs"] == 1
    played = cli.invoke(app, ["selfplay", "durak", "--bot", f"learned:weights={weights}", "--bot", "heuristic",
                                "--games", "2"])
    assert played.exit_code == 0, played.output
    assert "decisions lost: none" in played.output


def test_training_choices_are_checked_and_named_in_the_command(tmp_path: Path) -> None:
    assert "no training choice 'depth'" in _error(["train", "durak", "--epochs", "1", "--set", "depth=3",
                                                   "--out", str(tmp_path / "a")])
    assert "--set epsilon=lots: not a valid epsilon" in _error(["train", "durak", "--epochs", "1", "--set",
                                                                "epsilon=lots", "--out", str(tmp_path / "b")])
    assert "must not be negative" in _error(["train", "durak", "--epochs", "1", "--set", "half_life=-2",
                                             "--out", str(tmp_path / "c")])
    assert "not a valid hidden" in _error(["train", "durak", "--epochs", "1", "--set", "hidden=0,4",
                                           "--out", str(tmp_path / "d")])
    spec = DEFAULTS["durak"].with_(epsilon=0.01, hidden=(32, 16), half_life=150)
    assert run.command_line(spec, 7, 12) == ("cardtable train durak --epochs 12 --seed 7 --players 2 "
                                             "--set hidden=32,16 --set half_life=150 --set epsilon=0.01")


def test_the_rate_schedule_halves_every_half_life() -> None:
    spec = DEFAULTS["kaiser"].with_(half_life=100)
    assert [spec.rate_factor(e) for e in (0, 100, 200)] == [1.0, 0.5, 0.25]
    assert DEFAULTS["kaiser"].rate_factor(500) == 1.0


def test_keep_last_writes_the_last_epochs_net(tmp_path: Path) -> None:
    spec = DEFAULTS["durak"].with_(**TINY, keep="last")
    result = run.train(spec, 3, tmp_path, epochs=2, eval_every=1)
    net, manifest = load_weights(result.weights)
    trainer = Trainer(spec, 3)
    trainer.load_checkpoint(tmp_path / run.CHECKPOINT)
    assert result.kept_epoch == 2 and manifest.trained["selected_epoch"] == 2
    assert all(np.array_equal(w, v) for (w, _), (v, _) in zip(net.layers, trainer.net().layers, strict=True))
    assert manifest.command.endswith("--set keep=last")
