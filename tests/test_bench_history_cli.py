"""bench_history's command line: --help answers at once and builds nothing."""

import pytest

from bench import bench_history


def test_help_says_what_it_does_and_runs_nothing(monkeypatch, capsys):
    def configure():
        raise AssertionError("--help must not start the benchmark")

    monkeypatch.setattr(bench_history, "configure", configure)
    with pytest.raises(SystemExit) as done:
        bench_history.main(["--help"])
    assert done.value.code == 0
    assert "500 game nights" in capsys.readouterr().out


def test_an_unknown_option_is_refused_before_anything_is_built(monkeypatch):
    monkeypatch.setattr(bench_history, "configure", lambda: pytest.fail("started"))
    with pytest.raises(SystemExit) as done:
        bench_history.main(["--quick"])
    assert done.value.code == 2
