"""The training course's saved state (games/vision/training/state.py): what a later run, here
or on a GPU, goes on from. Plain numpy: the training's own dependencies (torch) are not
needed to check it."""

import numpy as np

from games.vision.training import state

STAGES = [
    {"name": "finder-real", "model": "finder", "start": "committed", "steps": 20_000},
    {"name": "namer-near", "model": "near", "start": "committed", "steps": 6000},
]


def course_meta(**steps_done):
    return {"stages": STAGES, "steps_done": steps_done, "runs": [], "validation": []}


def test_weights_come_back_exactly_and_moments_to_bfloat16(tmp_path):
    rng = np.random.default_rng(5)
    weights = rng.normal(size=(16, 3, 3, 3)).astype(np.float32)
    moment = rng.normal(size=(16, 3, 3, 3)).astype(np.float32)
    arrays = {
        "net.stem.weight": weights,
        "net.norm.num_batches_tracked": np.array(417, np.int64),
        f"{state.MOMENT_PREFIX}avg.0": moment,
        "torch_rng": rng.integers(0, 256, 5056).astype(np.uint8),
    }
    meta = course_meta(**{"finder-real": 4321}) | {"arrays_of": "finder-real"}

    state.save(tmp_path, meta, arrays)
    loaded_meta, loaded = state.load(tmp_path)

    assert loaded_meta == meta
    assert set(loaded) == set(arrays)
    assert np.array_equal(loaded["net.stem.weight"], weights)
    assert loaded["net.stem.weight"].dtype == np.float32
    assert loaded["net.norm.num_batches_tracked"] == 417
    assert np.array_equal(loaded["torch_rng"], arrays["torch_rng"])
    back = loaded[f"{state.MOMENT_PREFIX}avg.0"]
    assert back.dtype == np.float32
    assert np.allclose(back, moment, rtol=2**-8, atol=0)
    assert not np.array_equal(back, moment)  # rounded: half the bytes


def test_a_tiny_second_moment_is_not_rounded_to_zero():
    # float16 would make 1e-12 zero, and the weight's next step a leap.
    tiny = np.array([1e-12, 3e-20, 0.0, -2.5e-9], np.float32)
    back = state.from_bfloat16(state.to_bfloat16(tiny))
    assert np.all((back == 0) == (tiny == 0))
    assert np.allclose(back, tiny, rtol=2**-8, atol=0)


def test_a_later_save_replaces_the_file_whole(tmp_path):
    state.save(tmp_path, course_meta(**{"finder-real": 100}), {"net.w": np.ones(3, np.float32)})
    state.save(tmp_path, course_meta(**{"finder-real": 200}), {"net.w": np.zeros(3, np.float32)})
    meta, arrays = state.load(tmp_path)
    assert meta["steps_done"] == {"finder-real": 200}
    assert not arrays["net.w"].any()
    assert [p.name for p in tmp_path.iterdir()] == [state.FILE]


def test_nothing_saved_reads_as_nothing(tmp_path):
    assert state.load(tmp_path) is None


def test_a_run_goes_on_at_the_step_the_last_one_saved():
    assert state.where(course_meta()) == (0, 0)
    assert state.where(course_meta(**{"finder-real": 7345})) == (0, 7345)


def test_a_finished_stage_hands_over_to_the_next():
    assert state.where(course_meta(**{"finder-real": 20_000})) == (1, 0)
    assert state.where(course_meta(**{"finder-real": 20_000, "namer-near": 5999})) == (1, 5999)
    assert state.where(course_meta(**{"finder-real": 20_000, "namer-near": 6000})) is None


def test_the_report_lists_each_run_and_what_the_validation_photos_read(tmp_path):
    meta = course_meta(**{"finder-real": 2000})
    meta["runs"] = [
        {
            "started": "2026-11-27T09:28:35+00:00",
            "stage": "finder-real",
            "from_step": 0,
            "to_step": 2000,
            "seconds": 900,
            "device": "cpu",
            "losses": {"heat": 0.21},
        }
    ]
    figures = {"recall": 0.9416, "precision": 0.9773, "mean": 0.9595, "exact": 46, "photos": 53}
    meta["baseline"] = figures
    meta["validation"] = [{"stage": "finder-real", "step": 2000, **figures, "exact": 47}]
    state.save(tmp_path, meta, {})

    lines = state.report(tmp_path).splitlines()

    assert "| 2026-11-27T09:28:35+00:00 | finder-real | 0-2000 | 900 | cpu | heat 0.21 |" in lines
    assert "| committed |  | 94.16% | 97.73% | 46/53 | 95.95% |" in lines
    assert "| finder-real | 2000 | 94.16% | 97.73% | 47/53 | 95.95% |" in lines
    assert "finder-real: 2000 of 20000 steps" in lines
